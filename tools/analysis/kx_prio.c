// SPDX-License-Identifier: MIT
// PRIO_CHANGE's cause and direction read once (kx_prio.h).
#include <kevhost/kx_prio.h>

#include <trace/kev.h>

enum kx_prio_kind kx_prio_kind(unsigned now, unsigned was, unsigned cause)
{
    switch (cause) {
    case KEV_PRIO_INITIAL: return KX_PRIO_START;
    case KEV_PRIO_CALL:    return KX_PRIO_OWN;
    case KEV_PRIO_MUTEX:   return now > was ? KX_PRIO_BOOST : KX_PRIO_BOOST_LESS;
    case KEV_PRIO_MSG:     return now > was ? KX_PRIO_MSG_UP : KX_PRIO_MSG_DOWN;
    case KEV_PRIO_INH_END: return KX_PRIO_INH_END;
    case KEV_PRIO_CEILING: return KX_PRIO_CEILING;
    default:               return KX_PRIO_UNKNOWN;
    }
}

const char *kx_prio_kind_name(enum kx_prio_kind kind)
{
    static const char *const n[KX_PRIO_NKINDS] = {
        "start", "own change", "boost", "inherited priority lowered", "inheritance ended",
        "message inheritance up", "message inheritance down", "ceiling", "unknown"
    };
    return kind < KX_PRIO_NKINDS ? n[kind] : "unknown";
}
