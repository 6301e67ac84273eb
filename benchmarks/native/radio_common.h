/* The group pair the *_radio_* tools run, chosen when they are compiled: DISH (local, binds,
 * joins one group) and RADIO (remote, connects, sends to that group), the draft types (needs
 * -DZMQ_BUILD_DRAFT_API and a draft build of libzmq); -DRADIO_PUB_SUB=1 gives SUB (local,
 * binds, subscribes to everything) and XPUB (remote), the classic pair read beside them.
 * compare.sh builds both from the same sources against the same library.
 *
 * Neither pair has flow control by default: a RADIO or PUB drops what a full peer cannot take.
 * The sender sets ZMQ_XPUB_NODROP (libzmq's RADIO takes it too), so over tcp a full peer
 * blocks the send and every message arrives once the peer has joined. udp has no flow control
 * at all: the kernel drops datagrams the receiver has no room for. So the receiver stops at
 * <message-count> or when nothing has arrived for RADIO_IDLE_MS, and reports what it received
 * and the loss; the mean divides the messages received by the time from the first to the last. */
#ifndef MANAGED_ZMQ_RADIO_COMMON_H
#define MANAGED_ZMQ_RADIO_COMMON_H

#include <errno.h>
#include <time.h>
#include "perf_common.h"

/* The one group the tools use (4 octets, as a short topic would be). */
#define RADIO_GROUP "perf"
/* How long the receiver waits for the first message (the sender's start-up), then fails. */
#define RADIO_FIRST_WAIT_MS 30000
/* How long the receiver waits for one more message once they stop coming: the sender is done. */
#define RADIO_IDLE_MS 1000
/* A RADIO cannot see JOINs (an XPUB reads subscriptions): over a connection it waits this long
 * after zmq_connect so the DISH's JOIN has arrived; anything sent before is dropped and shows
 * as loss. A udp DISH sends no JOIN (its RADIO sends every message), so udp does not wait. */
#define RADIO_JOIN_WAIT_MS 500

#if RADIO_PUB_SUB
#define RADIO_LOCAL_TYPE ZMQ_SUB
#define RADIO_REMOTE_TYPE ZMQ_XPUB
#else
#define RADIO_LOCAL_TYPE ZMQ_DISH
#define RADIO_REMOTE_TYPE ZMQ_RADIO
#endif

static inline void radio_set_int(void *socket, int option, int value, const char *what)
{
    if (zmq_setsockopt(socket, option, &value, sizeof value) != 0)
        perf_die(what);
}

/* Local side, before zmq_bind: join the group or subscribe to everything. */
static inline void radio_local_setup(void *local)
{
#if RADIO_PUB_SUB
    if (zmq_setsockopt(local, ZMQ_SUBSCRIBE, "", 0) != 0)
        perf_die("zmq_setsockopt (ZMQ_SUBSCRIBE)");
#else
    if (zmq_join(local, RADIO_GROUP) != 0)
        perf_die("zmq_join");
#endif
}

/* Remote side, after zmq_connect: wait until the peer can receive (see RADIO_JOIN_WAIT_MS). */
static inline void radio_remote_wait(void *remote, const char *connect_to)
{
#if RADIO_PUB_SUB
    (void) connect_to;
    zmq_msg_t subscription;
    if (zmq_msg_init(&subscription) != 0 || zmq_msg_recv(&subscription, remote, 0) < 0)
        perf_die("zmq_msg_recv (subscription)");
    zmq_msg_close(&subscription);
#else
    (void) remote;
    if (strncmp(connect_to, "udp://", 6) != 0) {
        struct timespec wait = { RADIO_JOIN_WAIT_MS / 1000, (RADIO_JOIN_WAIT_MS % 1000) * 1000000L };
        nanosleep(&wait, NULL);
    }
#endif
}

/* Remote side: the group on a message about to be sent (PUB/SUB: none). */
static inline void radio_set_group(zmq_msg_t *msg)
{
#if RADIO_PUB_SUB
    (void) msg;
#else
    if (zmq_msg_set_group(msg, RADIO_GROUP) != 0)
        perf_die("zmq_msg_set_group");
#endif
}

#endif
