// SPDX-License-Identifier: MIT
// The host's -c and -p (cmdproc.h). A created command waits on a pipe between fork and exec,
// so nothing of it runs before BEGIN has fired; it is let go by a byte on the pipe (if dtrace
// ends first, the pipe closes empty and the command exits without running).
#include "cmdproc.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int hold = -1; /* write end of the pipe the created command waits on */

pid_t cmdproc_create(const char *cmd)
{
    char *copy = strdup(cmd), *argv[64];
    int argc = 0, fd[2];
    for (char *w = strtok(copy, " \t"); w && argc < 63; w = strtok(NULL, " \t"))
        argv[argc++] = w;
    argv[argc] = NULL;
    if (!argc || pipe(fd) != 0) {
        fprintf(stderr, "dtrace: failed to execute %s: %s\n", cmd,
                argc ? strerror(errno) : "empty command");
        free(copy);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char c = 0;
        ssize_t n;
        close(fd[1]);
        while ((n = read(fd[0], &c, 1)) < 0 && errno == EINTR)
            ;
        if (n != 1 || c != 'g') /* dtrace ended before tracing ran: the command never runs */
            _exit(127);
        close(fd[0]);
        execvp(argv[0], argv);
        fprintf(stderr, "dtrace: failed to execute %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[0]);
    free(copy);
    if (pid < 0) {
        fprintf(stderr, "dtrace: failed to execute %s: %s\n", cmd, strerror(errno));
        close(fd[1]);
        return -1;
    }
    hold = fd[1];
    return pid;
}

void cmdproc_go(void)
{
    if (hold >= 0 && write(hold, "g", 1) != 1)
        fprintf(stderr, "dtrace: could not start the command: %s\n", strerror(errno));
    if (hold >= 0)
        close(hold);
    hold = -1;
}

int cmdproc_grab(pid_t pid)
{
    if (pid > 0 && kill(pid, 0) == 0)
        return 0;
    fprintf(stderr, "dtrace: failed to grab pid %d: %s\n", (int)pid,
            pid > 0 ? strerror(errno) : "not a process id");
    return -1;
}

int cmdproc_exited(pid_t pid, int child)
{
    int st;
    if (child ? waitpid(pid, &st, WNOHANG) != pid : kill(pid, 0) == 0 || errno != ESRCH)
        return 0;
    fprintf(stderr, "dtrace: pid %d has exited\n", (int)pid);
    return 1;
}
