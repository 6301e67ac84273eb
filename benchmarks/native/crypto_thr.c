/* crypto_thr [milliseconds-per-case]
 * The twin of `Managed.Zmq.Perf crypto`: CURVE's per-message work as libzmq does it, through
 * libsodium (the library Debian's libzmq5 uses for CURVE), in one thread and without sockets.
 * For 64 B, 1 KiB and 64 KiB it times crypto_box_afternm (seal) and crypto_box_open_afternm
 * (open), then Poly1305 and the XSalsa20 stream alone over 64 KiB, then one X25519 scalar
 * multiplication. Each case runs for the given time (default 1000 ms) after a warm-up of a fifth
 * of it and prints `case size ns/op MB/s`, the same line as the C# tool. */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

typedef void (*operation_fn)(void *state);

static double time_op(int milliseconds, operation_fn op, void *state)
{
    double ns = 0;
    long calls = 0;
    for (int pass = 0; pass < 2; pass++) {
        double budget = (pass == 0 ? (milliseconds / 5 > 0 ? milliseconds / 5 : 1) : milliseconds) * 1e6;
        double start = now_ns();
        calls = 0;
        do {
            for (int i = 0; i < 16; i++)
                op(state);
            calls += 16;
            ns = now_ns() - start;
        } while (ns < budget);
    }
    return ns / calls;
}

static void report(const char *name, int size, double ns)
{
    printf("%-9s %6d %12.1f ns %9.1f MB/s\n", name, size, ns, size / ns * 1000.0);
}

struct box_state {
    unsigned char key[crypto_box_BEFORENMBYTES];
    unsigned char nonce[crypto_box_NONCEBYTES];
    unsigned char *plain; /* crypto_box_ZEROBYTES of zeros, then the message */
    unsigned char *boxed; /* crypto_box_BOXZEROBYTES of zeros, then MAC and ciphertext */
    unsigned char *opened;
    size_t length;        /* message + ZEROBYTES */
};

static void seal(void *p)
{
    struct box_state *s = p;
    crypto_box_afternm(s->boxed, s->plain, s->length, s->nonce, s->key);
}

static void open_box(void *p)
{
    struct box_state *s = p;
    if (crypto_box_open_afternm(s->opened, s->boxed, s->length, s->nonce, s->key) != 0) {
        fprintf(stderr, "a sealed box did not open\n");
        exit(1);
    }
}

struct stream_state {
    unsigned char key[32];
    unsigned char nonce[24];
    unsigned char tag[16];
    unsigned char *data;
    size_t length;
};

static void poly(void *p)
{
    struct stream_state *s = p;
    crypto_onetimeauth_poly1305(s->tag, s->data, s->length, s->key);
}

static void xsalsa(void *p)
{
    struct stream_state *s = p;
    crypto_stream_xsalsa20_xor(s->data, s->data, s->length, s->nonce, s->key);
}

struct scalar_state {
    unsigned char secret[32];
    unsigned char point[32];
};

static void x25519(void *p)
{
    struct scalar_state *s = p;
    if (crypto_scalarmult(s->point, s->secret, s->point) != 0)
        crypto_scalarmult_base(s->point, s->secret);
}

/* A public key from a secret: what each side does once per handshake for its ephemeral key. */
static void x25519_base(void *p)
{
    struct scalar_state *s = p;
    crypto_scalarmult_base(s->point, s->secret);
    s->secret[0] ^= s->point[0];
}

int main(int argc, char *argv[])
{
    int milliseconds = argc > 1 ? atoi(argv[1]) : 1000;
    if (argc > 2 || milliseconds < 1) {
        printf("usage: crypto_thr [milliseconds-per-case]\n");
        return 1;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 1;
    }

    static const int sizes[] = { 64, 1024, 65536 };
    for (int i = 0; i < 3; i++) {
        struct box_state s;
        randombytes_buf(s.key, sizeof s.key);
        randombytes_buf(s.nonce, sizeof s.nonce);
        s.length = sizes[i] + crypto_box_ZEROBYTES;
        s.plain = calloc(1, s.length);
        s.boxed = calloc(1, s.length);
        s.opened = calloc(1, s.length);
        report("seal", sizes[i], time_op(milliseconds, seal, &s));
        seal(&s);
        report("open", sizes[i], time_op(milliseconds, open_box, &s));
        free(s.plain);
        free(s.boxed);
        free(s.opened);
    }

    struct stream_state st;
    randombytes_buf(st.key, sizeof st.key);
    randombytes_buf(st.nonce, sizeof st.nonce);
    st.length = 65536;
    st.data = calloc(1, st.length);
    report("poly1305", (int) st.length, time_op(milliseconds, poly, &st));
    report("xsalsa20", (int) st.length, time_op(milliseconds, xsalsa, &st));
    free(st.data);

    struct scalar_state sc;
    randombytes_buf(sc.secret, sizeof sc.secret);
    crypto_scalarmult_base(sc.point, sc.secret);
    report("x25519", 32, time_op(milliseconds, x25519, &sc));
    report("x25519-base", 32, time_op(milliseconds, x25519_base, &sc));
    return 0;
}
