// SPDX-License-Identifier: MIT
// What user/lib/crt0.c asks of a C library (libc_thread_init, __libc_init_array), and the
// 64-bit division helpers gcc calls on i386 (libgcc is not linked into programs).
#include <stdint.h>

void libc_thread_init(void);
void libc_thread_init(void)
{
}

typedef void (*init_fn)(void);
extern init_fn __init_array_start[], __init_array_end[];

void __libc_init_array(void);
void __libc_init_array(void)
{
    for (init_fn *f = __init_array_start; f < __init_array_end; f++)
        (*f)();
}

// Shift-and-subtract division; *rem gets the remainder. Division by zero gives 0 (the
// hardware's #DE is for the 32-bit divide instruction only).
static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;
    if (d == 0) {
        *rem = 0;
        return 0;
    }
    if ((d >> 32) == 0 && (n >> 32) == 0) {
        *rem = (uint32_t)n % (uint32_t)d;
        return (uint32_t)n / (uint32_t)d;
    }
    for (int i = 63; i >= 0; i--) {
        r = r << 1 | ((n >> i) & 1u);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    *rem = r;
    return q;
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem);

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t r, q = udivmod64(n, d, &r);
    if (rem)
        *rem = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    return udivmod64(n, d, &r);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}

int64_t __divdi3(int64_t n, int64_t d)
{
    uint64_t r, q = udivmod64(n < 0 ? -(uint64_t)n : (uint64_t)n,
                              d < 0 ? -(uint64_t)d : (uint64_t)d, &r);
    return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}

int64_t __moddi3(int64_t n, int64_t d)
{
    uint64_t r;
    udivmod64(n < 0 ? -(uint64_t)n : (uint64_t)n, d < 0 ? -(uint64_t)d : (uint64_t)d, &r);
    return n < 0 ? -(int64_t)r : (int64_t)r;
}

// Both at once (lldiv, imaxdiv): the quotient truncated towards zero, the remainder with the
// dividend's sign, as C99 has them.
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem)
{
    *rem = __moddi3(n, d);
    return __divdi3(n, d);
}
