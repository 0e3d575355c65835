// SPDX-License-Identifier: MIT
// The consumer's symbolic addresses: a value of func( )/sym( ), mod( ), ufunc( )/usym( ),
// umod( ), uaddr( ) (record types 'y', 'm', 'u', 'n', 'a': trace/d/symaddr.c) or of printf's
// %a/%A. The board has no symbols, so it prints a token that says what the host must print:
// "<kind>`0x<address>", the kind one of sym, mod, usym, umod, uaddr (these five as libdtrace
// prints the subroutines) and addr (%a: a kernel address with its offset). In printa( )'s
// default layout a key that DTrace groups by symbol or module (all but uaddr) carries how
// its rows combine, "usym@count`0xc009a", so that the host, which sees every row, merges
// the rows that name one function as libdtrace's dt_aggregate_usym/sym/mod do
// (tools/stacksym; docs/profiling.md).
#include <d/dcons.h>
#include "dutil.h"

const char *dcons_symaddr_kind(char type, char conv)
{
    switch (type) {
    case 'y': return "sym";
    case 'm': return "mod";
    case 'u': return "usym";
    case 'n': return "umod";
    case 'a': return "uaddr";
    default: break;
    }
    if (type == 's' || type == 'k')
        return NULL;
    return conv == 'a' ? "addr" : conv == 'A' ? "uaddr" : NULL;
}

void dcons_symaddr_token(char *buf, size_t n, const char *kind, const char *merge, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    char digits[16];
    unsigned nd = 0;
    d_strlcpy(buf, kind, n);
    if (merge && d_strcmp(kind, "uaddr") != 0 && d_strcmp(kind, "addr") != 0) {
        d_strlcat(buf, "@", n);
        d_strlcat(buf, merge, n);
    }
    d_strlcat(buf, "`0x", n);
    do {
        digits[nd++] = hex[v & 15u];
        v >>= 4;
    } while (v);
    size_t len = d_strlen(buf);
    while (nd && len + 1 < n)
        buf[len++] = digits[--nd];
    buf[len] = 0;
}
