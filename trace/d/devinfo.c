// SPDX-License-Identifier: MIT
// The rule that turns a board's table of interrupt devices into D's struct dev_info and
// devnamesp[] answers (d/ddevinfo.h), shared by the kernel (its board's table) and dtrace -i
// (the table the capture's system page holds), so that both give the same answer for a line.
// No state: the caller's table is constant while it is read.
#include <d/ddevinfo_table.h>

static const struct ddev *ddev_find(const struct ddev *t, unsigned n, uint64_t line)
{
    for (unsigned k = 0; k < n; k++)
        if (t[k].line == line)
            return &t[k];
    return 0;
}

int ddev_member(const struct ddev *t, unsigned n, unsigned member, uint64_t line, int64_t *out)
{
    if (line >= DDEV_NLINES || member >= DDEV_COUNT)
        return -1;
    const struct ddev *d = ddev_find(t, n, line);
    if (member == DDEV_MAJOR)
        *out = d ? d->major : DDEV_MAJOR_LINE;
    else
        *out = d ? d->instance : (int64_t)line;
    return 0;
}

const char *ddev_name(const struct ddev *t, unsigned n, uint64_t major)
{
    for (unsigned k = 0; k < n; k++)
        if (t[k].major == major)
            return t[k].name;
    return major == DDEV_MAJOR_LINE ? DDEV_LINE_NAME : 0;
}
