// SPDX-License-Identifier: MIT
// Contiguous page allocator (see pmem.h). Invariant: a page's bit in `used` is set iff it
// belongs to an allocated block; run[first page of a block] = its length in pages, and run[]
// of every other page is 0, so pmem_free() can reject addresses that start no block.
#include <kernel/pmem.h>

struct pmem k_pmem;

static bool page_used(const struct pmem *m, size_t i)
{
    return (m->used[i / 32] >> (i % 32)) & 1u;
}

static void mark(struct pmem *m, size_t first, size_t n, bool used)
{
    for (size_t i = first; i < first + n; i++) {
        if (used)
            m->used[i / 32] |= 1u << (i % 32);
        else
            m->used[i / 32] &= ~(1u << (i % 32));
    }
}

void pmem_init(struct pmem *m, uintptr_t base, size_t size)
{
    size_t n = size >> PMEM_PAGE_SHIFT;
    m->base = base;
    m->npages = n > PMEM_MAX_PAGES ? PMEM_MAX_PAGES : n;
    m->nfree = m->npages;
    for (size_t i = 0; i < PMEM_MAX_PAGES / 32; i++)
        m->used[i] = 0;
    for (size_t i = 0; i < PMEM_MAX_PAGES; i++)
        m->run[i] = 0;
}

void *pmem_alloc(struct pmem *m, size_t size, size_t align)
{
    if (size == 0 || (align & (align - 1)) != 0)
        return NULL;
    size_t need = (size + PMEM_PAGE_SIZE - 1) >> PMEM_PAGE_SHIFT;
    if (size > (size_t)PMEM_MAX_PAGES << PMEM_PAGE_SHIFT || need > m->nfree)
        return NULL;

    for (size_t first = 0; first + need <= m->npages; ) {
        uintptr_t addr = m->base + (first << PMEM_PAGE_SHIFT);
        if (align > PMEM_PAGE_SIZE && (addr & (align - 1)) != 0) {
            first++;
            continue;
        }
        size_t i = 0;
        while (i < need && !page_used(m, first + i))
            i++;
        if (i == need) {
            mark(m, first, need, true);
            m->run[first] = (uint16_t)need;
            m->nfree -= need;
            return (void *)addr;
        }
        first += i + 1;     // skip past the used page
    }
    return NULL;
}

bool pmem_free(struct pmem *m, void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a < m->base || ((a - m->base) & (PMEM_PAGE_SIZE - 1)) != 0)
        return false;
    size_t first = (a - m->base) >> PMEM_PAGE_SHIFT;
    if (first >= m->npages || m->run[first] == 0)
        return false;
    size_t n = m->run[first];
    mark(m, first, n, false);
    m->run[first] = 0;
    m->nfree += n;
    return true;
}

size_t pmem_free_bytes(const struct pmem *m)
{
    return m->nfree << PMEM_PAGE_SHIFT;
}

size_t pmem_largest_free(const struct pmem *m)
{
    size_t best = 0, cur = 0;
    for (size_t i = 0; i < m->npages; i++) {
        cur = page_used(m, i) ? 0 : cur + 1;
        if (cur > best)
            best = cur;
    }
    return best << PMEM_PAGE_SHIFT;
}
