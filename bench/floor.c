/* The floor of bench/serve.sh's keep-alive case: the least a server on this kernel can do for a
 * keep-alive request. Plain TCP (no TLS), no routing, no auth, no log: each thread (one per core,
 * SO_REUSEPORT, as nginx's workers) waits in epoll, reads what a connection sent and answers each
 * request (each blank line ending a header block) with the same canned response, one write per
 * read. What this costs per request is a bound from below on any server's cost; a TLS server pays
 * it and its TLS and HTTP work on top.
 *
 * usage: floor PORT BODY-FILE        (cc -O2 -pthread -o floor floor.c) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static char *response;
static size_t response_len;
static int port;

static int listener(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 4096)) {
        perror("floor: listen");
        exit(1);
    }
    return fd;
}

/* Counts the requests a read completed; `tail` keeps the last 3 bytes of the previous read so
 * a blank line split across reads still counts once. */
static int requests_in(const char *buf, ssize_t n, unsigned *tail) {
    int count = 0;
    unsigned window = *tail;
    for (ssize_t i = 0; i < n; i++) {
        window = (window << 8) | (unsigned char)buf[i];
        if (window == 0x0d0a0d0a) count++;
    }
    *tail = window;
    return count;
}

static void *worker(void *unused) {
    (void)unused;
    int lfd = listener(), ep = epoll_create1(0), one = 1;
    static __thread unsigned tails[65536];
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd}, events[256];
    char buf[65536];
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    for (;;) {
        int n = epoll_wait(ep, events, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == lfd) {
                int c;
                while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= 65536) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    tails[c] = 0;
                    struct epoll_event ce = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                }
                continue;
            }
            ssize_t r = recv(fd, buf, sizeof buf, 0);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN) continue;
                close(fd);
                continue;
            }
            for (int k = requests_in(buf, r, &tails[fd]); k > 0; k--) {
                /* A response the kernel cannot take at once ends the connection: the floor
                 * measures the common case, a small response into an empty socket buffer. */
                if (send(fd, response, response_len, MSG_NOSIGNAL) != (ssize_t)response_len) {
                    close(fd);
                    break;
                }
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor PORT BODY-FILE\n");
        return 2;
    }
    port = atoi(argv[1]);
    int fd = open(argv[2], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        perror("floor: body");
        return 1;
    }
    char head[256];
    int h = snprintf(head, sizeof head,
                     "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %lld\r\n\r\n",
                     (long long)st.st_size);
    response_len = (size_t)h + (size_t)st.st_size;
    response = malloc(response_len);
    memcpy(response, head, (size_t)h);
    if (read(fd, response + h, (size_t)st.st_size) != st.st_size) {
        perror("floor: read");
        return 1;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    pthread_t t[64];
    for (long i = 0; i < cores && i < 64; i++) pthread_create(&t[i], NULL, worker, NULL);
    fprintf(stderr, "ready\n");
    pthread_join(t[0], NULL);
    return 0;
}
