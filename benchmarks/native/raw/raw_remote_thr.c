/* raw_remote_thr <connect-to> <message-size> <message-count>
 * The raw floor of remote_thr (see raw_common.h): connects and sends <message-count>
 * length-prefixed messages through the batch, then closes. */
#include "raw_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: raw_remote_thr <connect-to> <message-size> <message-count>\n");
        return 1;
    }
    int message_size = raw_parse_count(argv[2], "message-size");
    int message_count = raw_parse_count(argv[3], "message-count");
    unsigned char *payload = calloc(1, (size_t) message_size + 1);
    static raw_writer writer;
    if (!payload)
        raw_die("calloc");
    writer.fd = raw_connect(argv[1]);
    for (int i = 0; i != message_count; i++)
        raw_send(&writer, payload, (size_t) message_size);
    raw_flush(&writer);
    close(writer.fd);
    free(payload);
    return 0;
}
