// SPDX-License-Identifier: MIT
// tool_map_file (tools/include/kevhost/tool_map.h).
#include <kevhost/tool_map.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kevhost/tool_file.h>

uint8_t *tool_map_file(const char *path, size_t *len, int *mapped)
{
    *mapped = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (p == MAP_FAILED)
            return tool_read_file(path, len);
        madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
        *len = (size_t)st.st_size;
        *mapped = 1;
        return p;
    }
    close(fd);
    return tool_read_file(path, len);
}

void tool_unmap_file(uint8_t *data, size_t len, int mapped)
{
    if (mapped)
        munmap(data, len);
    else
        free(data);
}
