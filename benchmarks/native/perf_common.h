/* Shared helpers for the libzmq side of the Managed.Zmq benchmarks.
 * Written for this project; mirrors the command lines, output lines and
 * clock rules of libzmq's perf/ tools so results are comparable. */
#ifndef MANAGED_ZMQ_PERF_COMMON_H
#define MANAGED_ZMQ_PERF_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

static inline void perf_die(const char *what)
{
    fprintf(stderr, "error in %s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
}

/* Strict positive integer parse; libzmq uses atoi, we reject garbage instead. */
static inline int perf_parse_count(const char *text, const char *name)
{
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 0x7fffffff) {
        fprintf(stderr, "invalid %s: %s\n", name, text);
        exit(1);
    }
    return (int) value;
}

#endif
