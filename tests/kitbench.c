// SPDX-License-Identifier: GPL-2.0
/*
 * kitbench - time the kit's drivers, for `make bench` (guest/kit-bench runs
 * it in the guest, once per driver and form, with the module loaded).
 *
 *   kitbench [-n OPS | -t SECS] WORKLOAD[:OPS]...
 *
 * Each workload runs OPS operations (-n, default 1000; WORKLOAD:OPS for
 * that one alone), or with -t until SECS seconds of measured time have
 * passed (checking the clock every 64 operations or so), after a short
 * untimed warm-up, and prints one line:
 *
 *   workload=fifo-64 ops=20000 bytes=1280000 secs=0.81 ops_s=24691.4 mb_s=1.580
 *
 * secs is the measured time (CLOCK_MONOTONIC), bytes the payload moved one
 * way; mb_s (10^6 bytes/s) is printed only where bytes are the point.  Each
 * call's result is checked: a workload that fails prints
 * "workload=NAME error=..." instead, and the exit status is then 1.  Every
 * workload must finish within 120 s, or SIGALRM ends the program.
 *
 * Workloads (one "op" each):
 *   fifo-64, fifo-4k   /dev/kitfifo: write() one event of 64 B or 4 KiB,
 *                      read() it back
 *   fifo-iov16         /dev/kitfifo: writev() of 16 segments of 256 B, then
 *                      readv() of 16 segments of 256 B.  Legacy makes 16
 *                      events of the writev (one .write per segment) and
 *                      the readv takes one per segment; converted makes one
 *                      4 KiB event, which the readv spreads over its
 *                      segments.  Either way one op moves 4 KiB through the
 *                      queue and leaves it empty.
 *   uring-read-qd1, uring-read-qd32, uring-write-qd1, uring-write-qd32
 *                      /dev/kitfifo through io_uring, 64 B events, QD
 *                      requests submitted at a time and all reaped before
 *                      the next submission: one op is one request.  Reads
 *                      find their events already queued (written before
 *                      the clock starts), and writes find room (drained
 *                      after it stops), 128 requests at a time.
 *   dfs-read, dfs-write    /sys/kernel/debug/kit-debugfs/value: pread() of
 *                      up to 32 bytes, or pwrite() of a 6-byte number, at 0
 *   proc-read, proc-write  the same on /proc/kit-procfs/value
 *   insn-loop          no device: 1000 turns of a loop of two instructions
 *                      (x86-64's dec and jnz, arm64's subs and b.ne), so
 *                      2000 instructions and the few of the op's own loop:
 *                      under QEMU's instruction counting, whose clock
 *                      advances 1 ns per instruction, it must take 2 us
 *                      (tests/host/bench checks that)
 *   skel-echo          /dev/skel0: 4 KiB written and the same 4 KiB read
 *                      back (the Loopback gadget echoes it; reads return a
 *                      packet at most): a thread writes while this one
 *                      reads, as tests/skeleton.c does; the data is
 *                      compared at the end.  skel-echo:256 is 1 MiB, and
 *                      with -t it goes 1 MiB at a time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define FIFO_DEV	"/dev/kitfifo"
#define FIFO_RECSIZE	2		/* kitfifo's header per event */
#define DFS_VALUE	"/sys/kernel/debug/kit-debugfs/value"
#define PROC_VALUE	"/proc/kit-procfs/value"
#define SKEL_DEV	"/dev/skel0"
#define SKEL_CHUNK	4096		/* the driver's largest write URB */
#define SKEL_MIB	(1024 * 1024)
#define IOV_SEGS	16
#define IOV_SEG_LEN	256
#define URING_EVENT	64
#define URING_MAX_QD	32
#define URING_CHUNK	128		/* requests per chunk: see uring_rw() */
#define WORKLOAD_TIMEOUT 120		/* seconds, then SIGALRM */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char errmsg[256];

/* Record why a workload failed (errno too, if set); returns -1. */
static double fail(const char *fmt, ...)
{
	va_list ap;
	int e = errno;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	va_end(ap);
	n = strlen(errmsg);
	if (e)
		snprintf(errmsg + n, sizeof(errmsg) - n, " (%s)", strerror(e));
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_dev(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		fail("open %s", path);
	return fd;
}

/*
 * How much a workload does: n operations, or (n == 0) until secs seconds of
 * measured time have passed.  A workload works in chunks of operations,
 * timing each chunk, and asks chunk() how many to do next.
 */
struct ctl {
	long n;			/* operations, or 0 */
	double secs;		/* measured time, if n is 0 */
	long done;		/* operations done */
	double t;		/* seconds measured */
};

/* How many operations to do next, at most max; 0 when done. */
static long chunk(const struct ctl *c, long max)
{
	if (!c->n)
		return c->t < c->secs ? max : 0;
	return c->n - c->done < max ? c->n - c->done : max;
}

/* Count a chunk of k operations that started at time t0. */
static void timed(struct ctl *c, long k, double t0)
{
	c->t += now() - t0;
	c->done += k;
}

/*
 * A workload: run() does what c says, checking each call, and returns 0;
 * or -1 with errmsg set.
 */
struct workload {
	const char *name;
	int (*run)(const struct workload *w, struct ctl *c);
	long arg;		/* event size, queue depth, ... */
	long bytes;		/* payload per op; 0: no mb_s */
	long multiple;		/* ops go in whole multiples of this */
	long warmup;		/* ops done untimed first */
};

/* Checked every this many operations in -t mode. */
#define CHUNK		64

/* ---- misc-fifo ---- */

static char wbuf[IOV_SEGS * IOV_SEG_LEN], rbuf[sizeof(wbuf)];

/* Empty: FIONREAD says the size of the next event, 0 if none. */
static int fifo_empty(int fd)
{
	int len = -1;

	return !ioctl(fd, FIONREAD, &len) && len == 0;
}

/* One event written and read back; its first bytes carry the op number. */
static int fifo_pair(const struct workload *w, struct ctl *c)
{
	size_t size = w->arg;
	long i, k;
	ssize_t r;
	double t0;
	int fd = open_dev(FIFO_DEV, O_RDWR);

	if (fd < 0)
		return -1;
	while ((k = chunk(c, CHUNK))) {
		t0 = now();
		for (i = c->done; i < c->done + k; i++) {
			memcpy(wbuf, &i, sizeof(i));
			r = write(fd, wbuf, size);
			if (r != (ssize_t)size)
				return fail("write %ld gave %zd", i, r);
			r = read(fd, rbuf, size);
			if (r != (ssize_t)size || memcmp(rbuf, &i, sizeof(i)))
				return fail("read %ld gave %zd, or not its event",
					    i, r);
		}
		timed(c, k, t0);
	}
	if (!fifo_empty(fd))
		return fail("events left in the queue");
	return close(fd);
}

/* writev() of 16 segments, readv() of 16: see the comment at the top. */
static int fifo_iov(const struct workload *w, struct ctl *c)
{
	struct iovec wiov[IOV_SEGS], riov[IOV_SEGS];
	ssize_t total = IOV_SEGS * IOV_SEG_LEN, r;
	long i, k;
	double t0;
	int s, fd = open_dev(FIFO_DEV, O_RDWR);

	(void)w;
	if (fd < 0)
		return -1;
	for (s = 0; s < IOV_SEGS; s++) {
		wiov[s].iov_base = wbuf + s * IOV_SEG_LEN;
		wiov[s].iov_len = IOV_SEG_LEN;
		riov[s].iov_base = rbuf + s * IOV_SEG_LEN;
		riov[s].iov_len = IOV_SEG_LEN;
		memset(wbuf + s * IOV_SEG_LEN, 'a' + s, IOV_SEG_LEN);
	}
	while ((k = chunk(c, CHUNK))) {
		t0 = now();
		for (i = c->done; i < c->done + k; i++) {
			memcpy(wbuf, &i, sizeof(i));
			r = writev(fd, wiov, IOV_SEGS);
			if (r != total)
				return fail("writev %ld gave %zd", i, r);
			r = readv(fd, riov, IOV_SEGS);
			if (r != total || memcmp(rbuf, &i, sizeof(i)))
				return fail("readv %ld gave %zd, or not its events",
					    i, r);
		}
		timed(c, k, t0);
	}
	if (c->done && memcmp(rbuf, wbuf, total))
		return fail("readv brought back other bytes");
	if (!fifo_empty(fd))
		return fail("events left in the queue");
	return close(fd);
}

static long fifo_param(const char *name)
{
	char path[128];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/kitfifo/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

/* Submit qd requests, reap them all; each must move one 64-byte event. */
static int uring_round(struct io_uring *ring, int fd, int write_op, long qd)
{
	static char bufs[URING_MAX_QD][URING_EVENT];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	long i;
	int ret;

	for (i = 0; i < qd; i++) {
		sqe = io_uring_get_sqe(ring);
		if (write_op)
			io_uring_prep_write(sqe, fd, wbuf, URING_EVENT, -1);
		else
			io_uring_prep_read(sqe, fd, bufs[i], URING_EVENT, -1);
	}
	ret = io_uring_submit_and_wait(ring, qd);
	if (ret != qd) {
		errno = ret < 0 ? -ret : 0;
		fail("io_uring_submit_and_wait gave %d", ret);
		return -1;
	}
	for (i = 0; i < qd; i++) {
		ret = io_uring_peek_cqe(ring, &cqe);
		if (ret || cqe->res != URING_EVENT) {
			errno = ret ? -ret : cqe->res < 0 ? -cqe->res : 0;
			fail("a request gave %d", ret ? ret : cqe->res);
			return -1;
		}
		io_uring_cqe_seen(ring, cqe);
	}
	return 0;
}

/*
 * w->arg is the queue depth, negative for writes.  The events of a chunk
 * must all fit in the queue, and the workload keeps a max_event's room to
 * spare, so that no write ever waits for room (which in this workload
 * nobody would make): on a file without FMODE_NOWAIT (the legacy form),
 * 6.12's io_uring polls the file before it issues a write.
 */
static int uring_rw(const struct workload *w, struct ctl *c)
{
	int write_op = w->arg < 0, fd = open_dev(FIFO_DEV, O_RDWR);
	long qd = labs(w->arg), k, i;
	long room = fifo_param("queue_bytes") - fifo_param("max_event");
	struct io_uring ring;
	double t0;
	int ret;

	if (fd < 0)
		return -1;
	if (room < URING_CHUNK * (URING_EVENT + FIFO_RECSIZE) + FIFO_RECSIZE)
		return fail("kitfifo's queue_bytes - max_event: %ld, too small",
			    room);
	ret = io_uring_queue_init(2 * URING_MAX_QD, &ring, 0);
	if (ret < 0) {
		errno = -ret;
		return fail("io_uring_queue_init");
	}
	memset(wbuf, 'u', URING_EVENT);
	while ((k = chunk(c, URING_CHUNK))) {
		k = (k + qd - 1) / qd * qd;
		for (i = 0; !write_op && i < k; i++)
			if (write(fd, wbuf, URING_EVENT) != URING_EVENT)
				return fail("queueing event %ld", i);
		t0 = now();
		for (i = 0; i < k; i += qd)
			if (uring_round(&ring, fd, write_op, qd))
				return -1;
		timed(c, k, t0);
		for (i = 0; write_op && i < k; i++)
			if (read(fd, rbuf, URING_EVENT) != URING_EVENT)
				return fail("draining event %ld", i);
		if (!fifo_empty(fd))
			return fail("events left in the queue");
	}
	io_uring_queue_exit(&ring);
	return close(fd);
}

/* ---- debugfs-demo, procfs-demo: value ---- */

static const char *value_path(const struct workload *w)
{
	return w->name[0] == 'd' ? DFS_VALUE : PROC_VALUE;
}

static int value_read(const struct workload *w, struct ctl *c)
{
	const char *path = value_path(w);
	int fd = open_dev(path, O_RDONLY);
	char buf[32];
	ssize_t r;
	double t0;
	long i, k;

	if (fd < 0)
		return -1;
	while ((k = chunk(c, CHUNK))) {
		t0 = now();
		for (i = c->done; i < c->done + k; i++) {
			r = pread(fd, buf, sizeof(buf), 0);
			if (r <= 0 || buf[r - 1] != '\n')
				return fail("pread %ld of %s gave %zd",
					    i, path, r);
		}
		timed(c, k, t0);
	}
	return close(fd);
}

/* Two values in turn; the last one written must read back. */
static int value_write(const struct workload *w, struct ctl *c)
{
	static const char *const vals[] = { "12345\n", "54321\n" };
	const char *path = value_path(w);
	int fd = open_dev(path, O_RDWR);
	char buf[32];
	ssize_t r;
	double t0;
	long i, k;

	if (fd < 0)
		return -1;
	while ((k = chunk(c, CHUNK))) {
		t0 = now();
		for (i = c->done; i < c->done + k; i++) {
			r = pwrite(fd, vals[i & 1], 6, 0);
			if (r != 6)
				return fail("pwrite %ld of %s gave %zd",
					    i, path, r);
		}
		timed(c, k, t0);
	}
	r = pread(fd, buf, sizeof(buf), 0);
	if (c->done && (r != 6 || memcmp(buf, vals[(c->done - 1) & 1], 6)))
		return fail("%s does not read back what was written", path);
	return close(fd);
}

/* ---- no device ---- */

#define LOOP_TURNS	1000

/* n turns of two instructions: decrement, branch back while not zero. */
static inline void loop_turns(long n)
{
#if defined(__x86_64__)
	asm volatile("1:\tdec %0\n\tjnz 1b" : "+r" (n));
#elif defined(__aarch64__)
	asm volatile("1:\tsubs %0, %0, #1\n\tb.ne 1b" : "+r" (n) : : "cc");
#else
#error "insn-loop: no two-instruction loop for this architecture"
#endif
}

static int insn_loop(const struct workload *w, struct ctl *c)
{
	long i, k;
	double t0;

	(void)w;
	while ((k = chunk(c, CHUNK))) {
		t0 = now();
		for (i = 0; i < k; i++)
			loop_turns(LOOP_TURNS);
		timed(c, k, t0);
	}
	return 0;
}

/* ---- skeleton ---- */

struct skel_writer {
	int fd;
	const unsigned char *buf;
	size_t len;
	int err;		/* errno of a failed write, or -1 if short */
};

static void *skel_write_all(void *arg)
{
	struct skel_writer *sw = arg;
	size_t done = 0, len;
	ssize_t r;

	while (done < sw->len) {
		len = sw->len - done < SKEL_CHUNK ? sw->len - done : SKEL_CHUNK;
		r = write(sw->fd, sw->buf + done, len);
		if (r <= 0) {
			__atomic_store_n(&sw->err, r < 0 ? errno : -1,
					 __ATOMIC_RELAXED);
			break;
		}
		done += r;
	}
	return NULL;
}

/* Wait for the node (the driver binds after insmod), open it, drain it. */
static int skel_open(void)
{
	static char junk[SKEL_CHUNK];
	int tries, idle = 0, fd = -1;

	for (tries = 0; tries < 200 && fd < 0; tries++) {
		fd = open(SKEL_DEV, O_RDWR | O_NONBLOCK);
		if (fd < 0)
			usleep(50000);
	}
	if (fd < 0)
		return open_dev(SKEL_DEV, O_RDWR);
	/* Nothing comes back for 100 ms: nothing is left on the way. */
	while (idle < 5) {
		if (read(fd, junk, sizeof(junk)) > 0) {
			idle = 0;
			continue;
		}
		if (errno != EAGAIN) {
			fail("read while draining " SKEL_DEV);
			close(fd);
			return -1;
		}
		idle++;
		usleep(20000);
	}
	if (fcntl(fd, F_SETFL, 0)) {
		fail("fcntl");
		close(fd);
		return -1;
	}
	return fd;
}

/* Echo k chunks: a thread writes them while this one reads them back. */
static int skel_echo_some(int fd, unsigned char *out, unsigned char *in,
			  long k)
{
	struct skel_writer sw = { .fd = fd, .buf = out };
	size_t got = 0, len = k * SKEL_CHUNK;
	pthread_t id;
	ssize_t r;
	int err;

	sw.len = len;
	err = pthread_create(&id, NULL, skel_write_all, &sw);
	if (err) {
		errno = err;
		return fail("pthread_create");
	}
	while (got < len && !__atomic_load_n(&sw.err, __ATOMIC_RELAXED)) {
		r = read(fd, in + got,
			 len - got < SKEL_CHUNK ? len - got : SKEL_CHUNK);
		if (r <= 0)
			break;
		got += r;
	}
	if (got < len) {
		fail("read after %zu of %zu bytes", got, len);
		/* The writer may be stuck behind the echo: end it. */
		pthread_cancel(id);
		pthread_join(id, NULL);
		return -1;
	}
	pthread_join(id, NULL);
	if (sw.err) {
		errno = sw.err > 0 ? sw.err : 0;
		return fail("write failed");
	}
	errno = 0;
	if (memcmp(in, out, len))
		return fail("the echo differs from what was written");
	return 0;
}

static int skel_echo(const struct workload *w, struct ctl *c)
{
	size_t len = SKEL_MIB / SKEL_CHUNK * SKEL_CHUNK, i;
	unsigned char *out = malloc(len), *in = malloc(len);
	int ret = -1, fd = -1;
	double t0;
	long k;

	(void)w;
	if (!out || !in) {
		fail("malloc");
		goto out;
	}
	fd = skel_open();
	if (fd < 0)
		goto out;
	for (i = 0; i < len; i++)
		out[i] = (i * 2654435761u) >> 24;
	while ((k = chunk(c, SKEL_MIB / SKEL_CHUNK))) {
		t0 = now();
		if (skel_echo_some(fd, out, in, k))
			goto out;
		timed(c, k, t0);
	}
	ret = close(fd);
	fd = -1;
out:
	if (fd >= 0)
		close(fd);
	free(out);
	free(in);
	return ret;
}

static const struct workload workloads[] = {
	/* name			run		arg	bytes	mult	warmup */
	{ "fifo-64",		fifo_pair,	64,	64,	1,	64 },
	{ "fifo-4k",		fifo_pair,	4096,	4096,	1,	64 },
	{ "fifo-iov16",		fifo_iov,	0,	4096,	1,	64 },
	{ "uring-read-qd1",	uring_rw,	1,	0,	1,	32 },
	{ "uring-read-qd32",	uring_rw,	32,	0,	32,	64 },
	{ "uring-write-qd1",	uring_rw,	-1,	0,	1,	32 },
	{ "uring-write-qd32",	uring_rw,	-32,	0,	32,	64 },
	{ "dfs-read",		value_read,	0,	0,	1,	64 },
	{ "dfs-write",		value_write,	0,	0,	1,	64 },
	{ "proc-read",		value_read,	0,	0,	1,	64 },
	{ "proc-write",		value_write,	0,	0,	1,	64 },
	{ "skel-echo",		skel_echo,	0, SKEL_CHUNK,	1,	0 },
	{ "insn-loop",		insn_loop,	0,	0,	1,	64 },
};

/*
 * Run one workload for ops operations (rounded up to its multiple), or for
 * secs seconds if ops is 0, after its warm-up (code run for the first time
 * is slow under QEMU without KVM, and io_uring starts its workers); print
 * its line.  Returns 0 if it ran, 1 if it failed.
 */
static int bench(const struct workload *w, long ops, double secs)
{
	struct ctl warm = { .n = w->warmup }, c = { .secs = secs };
	int ret = 0;

	c.n = (ops + w->multiple - 1) / w->multiple * w->multiple;
	errmsg[0] = '\0';
	alarm(WORKLOAD_TIMEOUT);
	errno = 0;
	if (warm.n)
		ret = w->run(w, &warm);
	errno = 0;
	if (!ret)
		ret = w->run(w, &c);
	alarm(0);
	if (ret) {
		printf("workload=%s error=\"%s\"\n", w->name, errmsg);
		fflush(stdout);
		return 1;
	}
	if (c.t <= 0)		/* a clock too coarse for so little */
		c.t = 0.000001;
	printf("workload=%s ops=%ld bytes=%ld secs=%.6f ops_s=%.1f",
	       w->name, c.done, c.done * w->bytes, c.t, c.done / c.t);
	if (w->bytes)
		printf(" mb_s=%.3f", c.done * w->bytes / c.t / 1e6);
	printf("\n");
	fflush(stdout);
	return 0;
}

static int bad_usage(const char *prog)
{
	size_t i;

	fprintf(stderr, "usage: %s [-n OPS | -t SECS] WORKLOAD[:OPS]...\n"
		"workloads:", prog);
	for (i = 0; i < ARRAY_SIZE(workloads); i++)
		fprintf(stderr, " %s", workloads[i].name);
	fprintf(stderr, "\n");
	return 2;
}

int main(int argc, char **argv)
{
	long ops = 1000, n;
	double secs = 0;
	int opt, failed = 0;
	size_t i, len;
	char *colon;

	while ((opt = getopt(argc, argv, "n:t:")) != -1) {
		switch (opt) {
		case 'n':
			ops = atol(optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		default:
			return bad_usage(argv[0]);
		}
	}
	if (optind == argc || ops <= 0 || secs < 0)
		return bad_usage(argv[0]);
	for (; optind < argc; optind++) {
		colon = strchr(argv[optind], ':');
		len = colon ? (size_t)(colon - argv[optind]) : strlen(argv[optind]);
		n = colon ? atol(colon + 1) : secs > 0 ? 0 : ops;
		for (i = 0; i < ARRAY_SIZE(workloads); i++)
			if (strlen(workloads[i].name) == len &&
			    !strncmp(workloads[i].name, argv[optind], len))
				break;
		if (i == ARRAY_SIZE(workloads) || (colon && n <= 0))
			return bad_usage(argv[0]);
		failed |= bench(&workloads[i], n, secs);
	}
	return failed;
}
