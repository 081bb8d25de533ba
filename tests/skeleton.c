// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for /dev/skel0 (skeleton, module kitskel), in either form.
 *
 *	skeleton --form legacy|converted	(as root, module just loaded)
 *
 * The device is the Loopback gadget on dummy_hcd (guest/usb-loopback,
 * set up by skeleton-setup before the module is loaded): what the host
 * writes to bulk-out comes back on bulk-in.  The gadget receives into
 * buffers of one packet (bulk_buflen = max packet) and sends each back as it
 * came: a full packet as a full packet, a short one (the end of a transfer
 * that was not a whole number of packets) as a short one.  The driver reads
 * through a URB of one packet, and each read returns what one URB brought
 * in, so the sizes that reads return show the packets the host sent.
 *
 * Each test runs in its own process, but the device and the driver's
 * buffer outlive it: skel_open() first drains whatever an earlier test left
 * on the way.  Tests that unplug the device, reset it, unload the module or
 * change the bus speed leave it as they found it: plugged in, loaded, high
 * speed.  Tests that need a call to be blocked wait until /proc says the
 * thread sleeps in that system call.  Waiting for data, or for room, is
 * poll()'s job: no test sleeps for it.
 */
#include "kit_test.h"

#include <fcntl.h>
#include <glob.h>
#include <linux/userfaultfd.h>
#include <linux/usbdevice_fs.h>
#include <poll.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>

#define MODULE		"kitskel"
#define USB_MAJOR	180
#define VENDOR		"fff0"		/* the gadget's idVendor in sysfs */
#define MAX_TRANSFER	4096		/* the driver's largest write URB */
#define WRITES_IN_FLIGHT 8		/* and how many it has in flight */
#define GADGET_QLEN	32		/* buffers of a packet in the gadget */
/*
 * A poll() that must wake gives up after this long.  A wake-up ends it at
 * once, so the bound only has to be generous: the debug kernel, emulated
 * on a busy machine, once took 4.6 s to report an unplug.
 */
#define POLL_WAIT_S	20
#define MIB		(1024 * 1024)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The device as the test found it: sysfs directory and packet size. */
static char usbdir[256];
static size_t packet;

/* ---- helpers ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

/* Run a guest command (usb-loopback ...); the test fails if it does. */
static void run(const char *cmd)
{
	int status = system(cmd);

	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		kit_fail("'%s' failed (status %#x)", cmd, status);
}

static int read_sysfs(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void write_sysfs(const char *path, const char *val)
{
	int fd = KIT_ASSERT_OK(open(path, O_WRONLY));

	KIT_ASSERT_EQ(write(fd, val, strlen(val)), (long long)strlen(val));
	close(fd);
}

/* The node of the (first) skeleton device, or NULL. */
static const char *node(void)
{
	static char path[64];
	glob_t g;

	if (glob("/dev/skel*", 0, NULL, &g))
		return NULL;
	snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
	globfree(&g);
	return path;
}

/*
 * Wait for the device (after a replug, a reload, a speed change): its node,
 * and its sysfs directory, which says the speed and so the packet size.
 */
static const char *wait_node(void)
{
	char buf[64], path[300];
	const char *n = NULL;
	glob_t g;
	size_t i;
	int tries;

	for (tries = 0; tries < 200 && !(n = node()); tries++)
		sleep_ms(50);
	if (!n)
		kit_fail("no /dev/skel* after 10 s");

	usbdir[0] = '\0';
	if (glob("/sys/bus/usb/devices/*/idVendor", 0, NULL, &g))
		kit_fail("no USB devices in sysfs");
	for (i = 0; i < g.gl_pathc; i++) {
		if (read_sysfs(g.gl_pathv[i], buf, sizeof(buf)) ||
		    strcmp(buf, VENDOR))
			continue;
		snprintf(usbdir, sizeof(usbdir), "%.*s",
			 (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]),
			 g.gl_pathv[i]);
	}
	globfree(&g);
	if (!usbdir[0])
		kit_fail("no device %s:* in sysfs", VENDOR);
	snprintf(path, sizeof(path), "%s/speed", usbdir);
	KIT_ASSERT_OK(read_sysfs(path, buf, sizeof(buf)));
	packet = atoi(buf) >= 5000 ? 1024 : 512;
	return n;
}

static void set_nonblock(int fd, int on)
{
	int fl = KIT_ASSERT_OK(fcntl(fd, F_GETFL));

	KIT_ASSERT_OK(fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK));
}

/* poll() one file for events, for ms at most: its revents, 0 if none. */
static short poll1(int fd, short events, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	KIT_ASSERT_OK(poll(&pfd, 1, ms));
	return pfd.revents;
}

/*
 * Read and throw away whatever arrives until nothing has for 100 ms.  A
 * non-blocking read that finds no data starts a read URB and says EAGAIN;
 * data that comes back later completes it, which poll() sees.
 */
static void drain(int fd)
{
	static char junk[65536];
	int idle = 0;
	ssize_t r;

	set_nonblock(fd, 1);
	while (idle < 5) {
		r = read(fd, junk, sizeof(junk));
		if (r > 0) {
			idle = 0;
			continue;
		}
		if (r < 0 && errno != EAGAIN)
			kit_failed(__FILE__, __LINE__, errno, "read while draining");
		if (!poll1(fd, POLLIN, 20))
			idle++;
	}
	set_nonblock(fd, 0);
}

/* Open the device (with extra flags), with nothing left on the way. */
static int skel_open(int flags)
{
	const char *n = wait_node();
	int fd;

	fd = KIT_ASSERT_OK(open(n, O_RDWR));
	drain(fd);
	close(fd);
	return KIT_ASSERT_OK(open(n, O_RDWR | flags));
}

/* Nothing more comes back: not readable for 100 ms. */
static void expect_nothing(int fd)
{
	char c;

	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), EAGAIN);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, 100), 0);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), EAGAIN);
	set_nonblock(fd, 0);
}

/* A byte stream that differs by seed and shows a shift or a repeat. */
static void fill(unsigned char *buf, size_t len, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = x >> 23;
	}
}

static void check(const unsigned char *got, const unsigned char *want,
		  size_t len, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (got[i] != want[i])
			kit_fail("%s: byte %zu of %zu is %#x, expected %#x",
				 what, i, len, got[i], want[i]);
}

/* Read exactly len bytes; each read returns at most a packet. */
static void read_all(int fd, unsigned char *buf, size_t len, size_t chunk)
{
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, buf + got, chunk < len - got ? chunk : len - got);
		if (r < 0)
			kit_failed(__FILE__, __LINE__, errno,
				   "read after %zu of %zu bytes", got, len);
		if (r == 0 || (size_t)r > packet)
			kit_fail("read gave %zd bytes (packet %zu)", r, packet);
		got += r;
	}
}

static void write_all(int fd, const unsigned char *buf, size_t len,
		      size_t chunk)
{
	size_t done = 0;
	ssize_t r;

	while (done < len) {
		r = write(fd, buf + done, chunk < len - done ? chunk : len - done);
		if (r <= 0)
			kit_failed(__FILE__, __LINE__, errno,
				   "write after %zu of %zu bytes", done, len);
		if (r > MAX_TRANSFER)
			kit_fail("write took %zd bytes, more than a URB", r);
		done += r;
	}
}

struct writer {
	int fd;
	const unsigned char *buf;
	size_t len, chunk;
	pthread_t id;
};

static void *writer_fn(void *arg)
{
	struct writer *w = arg;

	write_all(w->fd, w->buf, w->len, w->chunk);
	return NULL;
}

/*
 * Echo len bytes: a thread writes them (chunk bytes per call) while this
 * one reads them back.  Both at once: the gadget holds only GADGET_QLEN
 * packets, so a writer alone stalls once they are full.
 */
static void echo(int fd, size_t len, size_t wchunk, size_t rchunk)
{
	unsigned char *out = malloc(len), *in = malloc(len);
	struct writer w = { .fd = fd, .buf = out, .len = len, .chunk = wchunk };
	char what[64];
	int err;

	KIT_ASSERT(out && in);
	fill(out, len, len);
	err = pthread_create(&w.id, NULL, writer_fn, &w);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	read_all(fd, in, len, rchunk);
	pthread_join(w.id, NULL);
	snprintf(what, sizeof(what), "%zu bytes echoed", len);
	check(in, out, len, what);
	free(out);
	free(in);
}

/* Open, echo len bytes, check that nothing else comes back, close. */
static void echo_test(size_t len)
{
	int fd = skel_open(0);

	echo(fd, len, 65536, 65536);
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* A thread blocked in read(): what it got back. */
struct reader {
	int fd;
	size_t len;
	unsigned char buf[4096];
	void *to;		/* where it reads to: buf, or another place */
	ssize_t ret;
	int err;
	pid_t tid;
	pthread_t id;
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;

	r->tid = gettid();
	r->ret = read(r->fd, r->to, r->len);
	r->err = errno;
	return NULL;
}

static void start_reader_to(struct reader *r, int fd, void *to, size_t len)
{
	int err;

	r->fd = fd;
	r->to = to;
	r->len = len;
	r->tid = 0;
	err = pthread_create(&r->id, NULL, reader_fn, r);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	while (!__atomic_load_n(&r->tid, __ATOMIC_SEQ_CST))
		sleep_ms(1);
	kit_wait_blocked(r->tid, SYS_read);
}

static void start_reader(struct reader *r, int fd, size_t len)
{
	start_reader_to(r, fd, r->buf, len);
}

/*
 * A page whose first touch waits until the test lets it go (userfaultfd):
 * a read() into it waits in the driver, in its copy to the user.
 */
struct held_page {
	int uffd;
	unsigned char *page;
	size_t size;
};

static void hold_page(struct held_page *h)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	h->size = sysconf(_SC_PAGESIZE);
	h->uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (h->uffd < 0)
		KIT_SKIP("no userfaultfd (CONFIG_USERFAULTFD): %s",
			 strerror(errno));
	KIT_ASSERT_OK(ioctl(h->uffd, UFFDIO_API, &api));
	h->page = mmap(NULL, h->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KIT_ASSERT(h->page != MAP_FAILED);
	reg.range.start = (unsigned long)h->page;
	reg.range.len = h->size;
	KIT_ASSERT_OK(ioctl(h->uffd, UFFDIO_REGISTER, &reg));
}

/* Map the page (zeroed): the access that waited goes on. */
static void let_go_page(struct held_page *h)
{
	struct uffdio_zeropage z = {
		.range = { (unsigned long)h->page, h->size },
	};

	KIT_ASSERT_OK(ioctl(h->uffd, UFFDIO_ZEROPAGE, &z));
}

/*
 * A thread blocked in ppoll() (for POLL_WAIT_S at most): what it got.  It
 * blocks all signals while it waits: a signal (the SIGCHLD of a system()
 * in another thread) would end the wait, and the restarted ppoll() would
 * find ready what no wake-up of the driver's ever said was.
 */
struct poller {
	int fd;
	short events, revents;
	int ret, err;
	double secs;		/* how long it waited */
	pid_t tid;
	pthread_t id;
};

static void *poller_fn(void *arg)
{
	struct poller *p = arg;
	struct pollfd pfd = { .fd = p->fd, .events = p->events };
	struct timespec ts = { .tv_sec = POLL_WAIT_S };
	sigset_t all;

	sigfillset(&all);
	p->tid = gettid();
	p->secs = now();
	p->ret = ppoll(&pfd, 1, &ts, &all);
	p->err = errno;
	p->secs = now() - p->secs;
	p->revents = pfd.revents;
	return NULL;
}

static void start_poller(struct poller *p, int fd, short events)
{
	int err;

	p->fd = fd;
	p->events = events;
	p->tid = 0;
	err = pthread_create(&p->id, NULL, poller_fn, p);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	while (!__atomic_load_n(&p->tid, __ATOMIC_SEQ_CST))
		sleep_ms(1);
	kit_wait_blocked(p->tid, SYS_ppoll);
}

/*
 * The poller's revents; it fails the test if nothing woke it.  A poll()
 * that times out looks once more before it returns, and may find ready
 * what no wake-up announced: that too is a failure.
 */
static short join_poller(struct poller *p)
{
	pthread_join(p->id, NULL);
	if (p->ret < 0)
		kit_failed(__FILE__, __LINE__, p->err, "ppoll");
	if (!p->ret || p->secs >= POLL_WAIT_S - 0.5)
		kit_fail("poll for %#x: nothing woke it in %.1f s (revents %#x)",
			 p->events, p->secs, p->revents);
	return p->revents;
}

/* The device's node in usbfs, /dev/bus/usb/BBB/DDD (from its sysfs). */
static const char *usbfs_node(void)
{
	static char path[64];
	char p[300], bus[16], dev[16];

	snprintf(p, sizeof(p), "%s/busnum", usbdir);
	KIT_ASSERT_OK(read_sysfs(p, bus, sizeof(bus)));
	snprintf(p, sizeof(p), "%s/devnum", usbdir);
	KIT_ASSERT_OK(read_sysfs(p, dev, sizeof(dev)));
	snprintf(path, sizeof(path), "/dev/bus/usb/%03d/%03d", atoi(bus),
		 atoi(dev));
	return path;
}

/*
 * A reset through usbfs, in a thread: it goes through the driver's
 * pre_reset() and post_reset(), which hold io_mutex from one to the other.
 */
struct resetter {
	int ret, err;
	pid_t tid;
	pthread_t id;
};

static void *resetter_fn(void *arg)
{
	struct resetter *r = arg;
	int ufd = open(usbfs_node(), O_RDWR);

	r->tid = gettid();
	r->ret = ufd < 0 ? ufd : ioctl(ufd, USBDEVFS_RESET, 0);
	r->err = errno;
	if (ufd >= 0)
		close(ufd);
	return NULL;
}

/* Is the resetter in pre_reset(), waiting for writes in flight to end? */
static int reset_draining(struct resetter *r)
{
	char wchan[128];

	kit_read_task_file(r->tid, "wchan", wchan, sizeof(wchan));
	return !strcmp(wchan, "usb_wait_anchor_empty_timeout");
}

/*
 * Start a reset and come back while pre_reset() holds io_mutex, waiting for
 * writes that can't reach the device (SKEL_DRAIN_TIMEOUT_MS, 1 s): there
 * must be some, stuck_writes() leaves one.
 */
static void start_reset(struct resetter *r)
{
	int err, i;

	r->tid = 0;
	err = pthread_create(&r->id, NULL, resetter_fn, r);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	for (i = 0; i < 1000 && !reset_draining(r); i++) {
		if (__atomic_load_n(&r->tid, __ATOMIC_SEQ_CST) &&
		    !pthread_tryjoin_np(r->id, NULL))
			kit_fail("the reset ended without waiting for writes");
		usleep(1000);
	}
	if (!reset_draining(r))
		kit_fail("the reset did not come to wait for writes");
}

static void join_reset(struct resetter *r)
{
	pthread_join(r->id, NULL);
	if (r->ret)
		kit_failed(__FILE__, __LINE__, r->err, "USBDEVFS_RESET");
}

/*
 * Leave one write URB in flight that can't reach the device: with no read
 * URB to take back what the gadget echoes, its GADGET_QLEN buffers fill,
 * and it takes nothing more.  The read URB must be idle (read_urb_idle()).
 * Returns the bytes written, fill(out, ..., seed) of that length; the
 * writes in flight leave slots free.
 */
static size_t stuck_writes(int fd, unsigned char *out, uint32_t seed)
{
	size_t n = GADGET_QLEN * packet + MAX_TRANSFER;

	fill(out, n, seed);
	write_all(fd, out, n, MAX_TRANSFER);
	KIT_ASSERT_EQ(poll1(fd, POLLOUT, 0), POLLOUT);
	return n;
}

/*
 * Halt an endpoint of the device (0x81: bulk-in, 0x02: bulk-out), as a
 * device does when it stalls: kit_usbhalt.ko sends the request when it is
 * loaded (usbfs won't, for an interface that a driver has claimed).  Each
 * transfer to the endpoint then fails with EPIPE until the host clears it.
 */
#define HALT_KO		"../common/selftest/kit_usbhalt.ko"

/* Load a test tool, a module of common/selftest, with its parameters. */
static void load_tool(const char *ko, const char *params)
{
	const char *path = kit_test_path(ko);
	int fd;

	if (geteuid())
		KIT_SKIP("needs root to load a module");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		kit_fail("%.200s: %s (make builds it)", path, strerror(errno));
	KIT_ASSERT_OK(syscall(SYS_finit_module, fd, params, 0));
	close(fd);
}

static void usb_halt(int ep)
{
	char params[32];

	snprintf(params, sizeof(params), "ep=%#x", ep);
	load_tool(HALT_KO, params);
	KIT_ASSERT_OK(syscall(SYS_delete_module, "kit_usbhalt", O_NONBLOCK));
}

/*
 * Hold the driver's io_mutex, as open, close and write do for a moment,
 * until let_go_io_mutex(): kit_skelhold.ko holds it while it is loaded
 * (10 s at most: a test that fails meanwhile leaves no task hung on it).
 */
#define HOLD_KO		"../common/selftest/kit_skelhold.ko"

static void hold_io_mutex(void)
{
	load_tool(HOLD_KO, "");
}

static void let_go_io_mutex(void)
{
	KIT_ASSERT_EQ(kit_module_param("kit_skelhold", "held"), 1);
	KIT_ASSERT_OK(syscall(SYS_delete_module, "kit_skelhold", O_NONBLOCK));
}

/*
 * Leave the driver with no read URB in flight and nothing buffered: a read
 * that takes exactly what one URB brought in starts no other.
 */
static void read_urb_idle(int fd)
{
	unsigned char out[100], in[100];

	fill(out, sizeof(out), 42);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(in));
	check(in, out, sizeof(in), "before the read URB is left idle");
}

/*
 * Fill the driver's writes in flight without reading: the gadget takes
 * GADGET_QLEN packets, then holds the bus, and the URBs behind stay in
 * flight until the semaphore is exhausted.  Done when a write says EAGAIN
 * and poll() sees no room come back for 200 ms, so that nothing changes
 * after.  Returns the bytes accepted, which are fill(..., seed) of that
 * length.
 */
static size_t fill_up(int fd, unsigned char *out, size_t size, uint32_t seed)
{
	size_t done = 0;
	ssize_t r;

	fill(out, size, seed);
	set_nonblock(fd, 1);
	for (;;) {
		KIT_ASSERT(done + MAX_TRANSFER <= size);
		r = write(fd, out + done, MAX_TRANSFER);
		if (r < 0 && errno == EAGAIN) {
			if (!poll1(fd, POLLOUT, 200))
				break;
			continue;
		}
		KIT_ASSERT_EQ(r, MAX_TRANSFER);
		done += r;
	}
	set_nonblock(fd, 0);
	return done;
}

/* ---- the node ---- */

/* Root's alone: who else may use it is for a udev rule to say. */
KIT_TEST(node_is_0600)
{
	struct stat st;
	const char *n = wait_node();

	KIT_ASSERT_OK(stat(n, &st));
	KIT_ASSERT(S_ISCHR(st.st_mode));
	KIT_ASSERT_EQ(major(st.st_rdev), USB_MAJOR);
	KIT_ASSERT_EQ(st.st_mode & 07777, 0600);
	KIT_ASSERT_EQ(packet, 512);	/* high speed, as set up */
}

KIT_TEST(no_seeking)
{
	int fd = skel_open(0);
	char c = 0;

	KIT_ASSERT_ERRNO(lseek(fd, 0, SEEK_SET), ESPIPE);
	KIT_ASSERT_ERRNO(pwrite(fd, &c, 1, 0), ESPIPE);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- echo through the gadget ---- */

KIT_TEST(echo_1)
{
	echo_test(1);
}

KIT_TEST(echo_511)
{
	echo_test(511);
}

KIT_TEST(echo_512)
{
	echo_test(512);
}

KIT_TEST(echo_4096)
{
	echo_test(4096);
}

KIT_TEST(echo_65536)
{
	echo_test(65536);
}

/* Odd-sized writes and reads, so no boundary falls on a packet. */
KIT_TEST_TIMEOUT(echo_1mib_stream, 300)
{
	int fd = skel_open(0);
	double t = now();

	echo(fd, MIB, 3000, 1000);
	kit_diag("1 MiB in %.1f s", now() - t);
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * The driver's read URB is a whole packet whatever the caller asks for:
 * a URB of 1 byte would overflow on a 512-byte packet, losing it.
 */
KIT_TEST(reads_smaller_than_a_packet)
{
	unsigned char out[512], in[512];
	int fd = skel_open(0);
	size_t i;

	fill(out, sizeof(out), 7);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	for (i = 0; i < sizeof(in); i++)
		KIT_ASSERT_EQ(read(fd, in + i, 1), 1);
	check(in, out, sizeof(in), "one byte at a time");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- not blocking ---- */

KIT_TEST(nonblock_read_eagain)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(O_NONBLOCK);

	/* The first read starts the read URB, the second finds it busy. */
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_read, read(fd, in, sizeof(in))),
			 EAGAIN);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_read, read(fd, in, sizeof(in))),
			 EAGAIN);

	fill(out, sizeof(out), 100);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "non-blocking read");
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* With the writes in flight used up, a non-blocking write says EAGAIN. */
KIT_TEST(nonblock_write_eagain)
{
	static unsigned char out[64 * MAX_TRANSFER], in[sizeof(out)];
	int fd = skel_open(0);
	size_t done = fill_up(fd, out, sizeof(out), 1);

	kit_diag("%zu bytes accepted before EAGAIN", done);
	KIT_ASSERT(done >= WRITES_IN_FLIGHT * MAX_TRANSFER);
	/* Nothing accepted is lost once someone reads. */
	read_all(fd, in, done, sizeof(in));
	check(in, out, done, "after EAGAIN");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * RWF_NOWAIT: the VFS refuses it (EOPNOTSUPP) unless the file has
 * FMODE_NOWAIT, which only the converted form sets; there it must give
 * EAGAIN instead of blocking, on a blocking file.
 */
KIT_TEST(rwf_nowait_read)
{
	unsigned char out[100], in[4096];
	struct iovec iov = { in, sizeof(in) };
	int fd = skel_open(0);

	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(preadv2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		KIT_ASSERT_EQ(close(fd), 0);
		return;
	}
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
				     preadv2(fd, &iov, 1, -1, RWF_NOWAIT)),
			 EAGAIN);
	fill(out, sizeof(out), 101);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(preadv2(fd, &iov, 1, -1, RWF_NOWAIT), sizeof(out));
	check(in, out, sizeof(out), "RWF_NOWAIT read");
	KIT_ASSERT_EQ(close(fd), 0);
}

KIT_TEST(rwf_nowait_write)
{
	static unsigned char out[64 * MAX_TRANSFER], in[sizeof(out)];
	struct iovec iov = { out, MAX_TRANSFER };
	int fd = skel_open(0);
	size_t done;

	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		KIT_ASSERT_EQ(close(fd), 0);
		return;
	}
	done = fill_up(fd, out, sizeof(out), 2);
	/* Full: RWF_NOWAIT on a blocking file must not wait for room. */
	iov.iov_base = out + done;
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_pwritev2,
				     pwritev2(fd, &iov, 1, -1, RWF_NOWAIT)),
			 EAGAIN);
	read_all(fd, in, done, sizeof(in));
	check(in, out, done, "after RWF_NOWAIT");
	/* Room again: it writes. */
	fill(out, MAX_TRANSFER, 3);
	iov.iov_base = out;
	KIT_ASSERT_EQ(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT), MAX_TRANSFER);
	read_all(fd, in, MAX_TRANSFER, sizeof(in));
	check(in, out, MAX_TRANSFER, "RWF_NOWAIT write");
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- poll ---- */

/*
 * A reader waiting in poll() wakes when data comes back (the read URB's
 * completion wakes it), and the read after it does not wait.
 */
KIT_TEST(poll_in_wakes)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(O_NONBLOCK);
	struct poller p;

	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, 0), 0);
	start_poller(&p, fd, POLLIN);
	fill(out, sizeof(out), 110);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(join_poller(&p), POLLIN);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "read after poll");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * poll() with no read URB in flight starts one, as a read would; without
 * it nothing would ever arrive to wake the poller.
 */
KIT_TEST(poll_starts_read)
{
	unsigned char out[50], in[4096];
	int fd = skel_open(0);

	read_urb_idle(fd);
	fill(out, sizeof(out), 111);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "read after poll");
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A call that holds io_mutex for a moment (open, close, write), in a
 * thread: it blocks while kit_skelhold holds the lock, and goes on when
 * the lock is let go.
 */
enum racer_call { RACE_OPEN, RACE_CLOSE, RACE_WRITE };

struct racer {
	enum racer_call call;
	int fd;			/* close's and write's file */
	long ret;
	int err;
	pid_t tid;
	pthread_t id;
};

static void *racer_fn(void *arg)
{
	struct racer *r = arg;
	char c = 0;

	r->tid = gettid();
	switch (r->call) {
	case RACE_OPEN:
		r->ret = open(node(), O_RDWR);
		break;
	case RACE_CLOSE:
		r->ret = close(r->fd);
		break;
	case RACE_WRITE:
		r->ret = write(r->fd, &c, 1);
		break;
	}
	r->err = errno;
	return NULL;
}

static void start_racer(struct racer *r, enum racer_call call, int fd)
{
	static const long nr[] = {
		[RACE_OPEN] = SYS_openat, [RACE_CLOSE] = SYS_close,
		[RACE_WRITE] = SYS_write,
	};
	int err;

	r->call = call;
	r->fd = fd;
	r->tid = 0;
	err = pthread_create(&r->id, NULL, racer_fn, r);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	while (!__atomic_load_n(&r->tid, __ATOMIC_SEQ_CST))
		sleep_ms(1);
	kit_wait_blocked(r->tid, nr[call]);
}

/* An epoll_wait() with EPOLLET, in a thread, as the poller above. */
struct epoller {
	int epfd, ret, err;
	struct epoll_event ev;
	pid_t tid;
	pthread_t id;
};

static void *epoller_fn(void *arg)
{
	struct epoller *e = arg;
	sigset_t all;

	sigfillset(&all);
	e->tid = gettid();
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	e->ret = epoll_wait(e->epfd, &e->ev, 1, POLL_WAIT_S * 1000);
	e->err = errno;
	return NULL;
}

/*
 * Each "not readable" that poll() says must end with a wake-up.  Here the
 * read URB is idle, and what the poller waits for is in the gadget, waiting
 * for it to be started; a poll() that can't take io_mutex to start it,
 * because open, close or write holds it (kit_skelhold holds it for them
 * as long as the test needs), must still see to it that the URB starts,
 * and wake the poller when data comes.  Both a poll() and an epoll waiter
 * with EPOLLET, which hears of wake-ups only: its first look, when it
 * registers, is the one that finds the lock taken.
 */
KIT_TEST_TIMEOUT(poll_woken_after_io_mutex, 300)
{
	static const char *const calls[] = { "open", "close", "write" };
	unsigned char out[100], in[4096];
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	int call, et, fd, fd2;
	struct epoller e;
	struct poller p;
	struct racer r;

	for (call = RACE_OPEN; call <= RACE_WRITE; call++) {
		for (et = 0; et < 2; et++) {
			kit_diag("%s against %s", calls[call],
				 et ? "epoll_wait, EPOLLET" : "poll");
			fd = skel_open(0);
			fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
			read_urb_idle(fd);
			fill(out, sizeof(out), 120 + call * 2 + et);
			KIT_ASSERT_EQ(write(fd, out, sizeof(out)),
				      sizeof(out));

			hold_io_mutex();
			if (et) {
				e.epfd = KIT_ASSERT_OK(epoll_create1(0));
				ev.data.fd = fd;
				KIT_ASSERT_OK(epoll_ctl(e.epfd, EPOLL_CTL_ADD,
							fd, &ev));
				e.tid = 0;
				KIT_ASSERT(!pthread_create(&e.id, NULL,
							   epoller_fn, &e));
				while (!__atomic_load_n(&e.tid,
							__ATOMIC_SEQ_CST))
					sleep_ms(1);
				kit_wait_blocked(e.tid, KIT_SYS_EPOLL_WAIT);
			} else {
				start_poller(&p, fd, POLLIN);
			}
			start_racer(&r, call, call == RACE_WRITE ? fd : fd2);
			let_go_io_mutex();
			pthread_join(r.id, NULL);
			if (r.ret < 0)
				kit_failed(__FILE__, __LINE__, r.err, "%s",
					   calls[call]);

			if (et) {
				pthread_join(e.id, NULL);
				if (e.ret < 0)
					kit_failed(__FILE__, __LINE__, e.err,
						   "epoll_wait");
				if (!e.ret)
					kit_fail("epoll_wait: nothing woke it in %d s",
						 POLL_WAIT_S);
				KIT_ASSERT_EQ(e.ev.events, EPOLLIN);
				close(e.epfd);
			} else {
				KIT_ASSERT_EQ(join_poller(&p), POLLIN);
			}
			KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
			check(in, out, sizeof(out), "read after the wake-up");
			if (call == RACE_OPEN)
				KIT_ASSERT_EQ(close(r.ret), 0);
			if (call != RACE_CLOSE)
				KIT_ASSERT_EQ(close(fd2), 0);
			KIT_ASSERT_EQ(close(fd), 0);
		}
	}
}

/*
 * With the writes in flight used up, not writable; a writer waiting in
 * poll() wakes when one ends (here: killed by the close of the file that
 * wrote them, which reads nothing, so no read completion wakes it).
 */
KIT_TEST(poll_out_wakes)
{
	static unsigned char out[64 * MAX_TRANSFER];
	int fd1 = skel_open(0);
	int fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	struct poller p;

	KIT_ASSERT_EQ(poll1(fd1, POLLOUT, 0), POLLOUT);
	fill_up(fd2, out, sizeof(out), 112);
	KIT_ASSERT_EQ(poll1(fd1, POLLOUT, 0), 0);
	start_poller(&p, fd1, POLLOUT);
	KIT_ASSERT_ERRNO(close(fd2), EIO);
	KIT_ASSERT_EQ(join_poller(&p), POLLOUT);
	KIT_ASSERT_EQ(close(fd1), 0);
	skel_open(0);	/* drains what the gadget held */
}

/*
 * Unplugged: POLLERR | POLLHUP, even for a poller that asked for nothing
 * and had no URB in flight to be ended (disconnect() wakes it).
 */
KIT_TEST(poll_hup_on_unplug)
{
	int fd = skel_open(0);
	struct poller p;

	read_urb_idle(fd);
	start_poller(&p, fd, 0);
	run("usb-loopback unplug");
	KIT_ASSERT_EQ(join_poller(&p), POLLERR | POLLHUP);
	KIT_ASSERT_EQ(poll1(fd, POLLIN | POLLOUT, 0), POLLERR | POLLHUP);
	KIT_ASSERT_EQ(close(fd), 0);
	run("usb-loopback replug");
	echo_test(4096);
}

/* ---- writev and splice ---- */

/*
 * writev() of 100 + 200 + 300 bytes.  Legacy: the VFS calls .write once
 * per segment, so three transfers, each ending in a short packet that the
 * gadget echoes as it came: reads of 100, 200, 300.  Converted: one call,
 * one transfer of 600 bytes: a full packet and a short one, 512 + 88.
 */
KIT_TEST(writev_transfers)
{
	static const size_t legacy[] = { 100, 200, 300 }, converted[] = { 512, 88 };
	const size_t *want = kit_form_iter() ? converted : legacy;
	size_t n = kit_form_iter() ? 2 : 3, i, off = 0;
	unsigned char out[600], in[600];
	struct iovec iov[3] = {
		{ out, 100 }, { out + 100, 200 }, { out + 300, 300 },
	};
	int fd = skel_open(0);

	fill(out, sizeof(out), 600);
	KIT_ASSERT_EQ(writev(fd, iov, 3), 600);
	for (i = 0; i < n; i++) {
		KIT_ASSERT_EQ(read(fd, in + off, sizeof(in) - off), want[i]);
		off += want[i];
	}
	check(in, out, sizeof(out), "writev");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* splice() from the device needs .splice_read: converted only. */
KIT_TEST(splice_read)
{
	unsigned char out[100], in[100];
	int fd = skel_open(0), p[2];

	KIT_ASSERT_OK(pipe(p));
	fill(out, sizeof(out), 99);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(splice(fd, NULL, p[1], NULL, 4096, 0), EINVAL);
		read_all(fd, in, sizeof(in), sizeof(in));
	} else {
		KIT_ASSERT_EQ(splice(fd, NULL, p[1], NULL, 4096, 0),
			      sizeof(out));
		KIT_ASSERT_EQ(read(p[0], in, sizeof(in)), sizeof(in));
	}
	check(in, out, sizeof(out), "splice");
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- bad pointers ---- */

/* A write from a bad buffer sends nothing, not even the good part. */
KIT_TEST(efault_write)
{
	unsigned char *edge = (unsigned char *)kit_edge_buf(100);
	int fd = skel_open(0);

	memset(edge, 0xee, 100);
	KIT_ASSERT_ERRNO(write(fd, kit_bad_ptr(), 100), EFAULT);
	KIT_ASSERT_ERRNO(write(fd, edge, 512), EFAULT);
	expect_nothing(fd);
	echo(fd, 4096, 4096, 4096);
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A read into a bad buffer fails with EFAULT and keeps the data; one into
 * a buffer that ends early returns what fitted, and the rest comes next.
 */
KIT_TEST(efault_read)
{
	unsigned char out[300], in[300];
	unsigned char *edge = (unsigned char *)kit_edge_buf(100);
	int fd = skel_open(0);
	ssize_t r;

	fill(out, sizeof(out), 300);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), sizeof(in)), EFAULT);
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), sizeof(in)), EFAULT);
	r = KIT_ASSERT_OK(read(fd, edge, sizeof(in)));
	KIT_ASSERT(r > 0 && r <= 100);
	memcpy(in, edge, r);
	read_all(fd, in + r, sizeof(in) - r, sizeof(in));
	check(in, out, sizeof(out), "after EFAULT");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- two openers ---- */

/*
 * Both files share the device's one stream.  A reader blocked on one file
 * blocks neither a write on the other nor a close of it: in usb-skeleton.c
 * it holds io_mutex, which the writer needs, and close kills its URB.
 */
KIT_TEST(two_openers)
{
	unsigned char out[200];
	int fd1 = skel_open(0);
	int fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	struct reader r;

	fill(out, sizeof(out), 2);
	start_reader(&r, fd2, sizeof(r.buf));
	KIT_ASSERT_EQ(write(fd1, out, 100), 100);
	pthread_join(r.id, NULL);
	KIT_ASSERT_EQ(r.ret, 100);
	check(r.buf, out, 100, "written on fd1, read on fd2");

	start_reader(&r, fd2, sizeof(r.buf));
	KIT_ASSERT_EQ(close(fd1), 0);
	sleep_ms(100);
	KIT_ASSERT_EQ(write(fd2, out + 100, 100), 100);
	pthread_join(r.id, NULL);
	if (r.ret < 0)
		kit_failed(__FILE__, __LINE__, r.err, "read across close");
	KIT_ASSERT_EQ(r.ret, 100);
	check(r.buf, out + 100, 100, "read across the other's close");
	KIT_ASSERT_EQ(close(fd2), 0);
}

/*
 * close() waits for the file's own writes, and reports their errors: one
 * opener's close neither waits for nor kills another's writes (in
 * usb-skeleton.c it does both, and takes their error).
 */
KIT_TEST(close_is_per_file)
{
	static unsigned char out[64 * MAX_TRANSFER], in[sizeof(out)];
	int fd1 = skel_open(0);
	int fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	size_t done = fill_up(fd1, out, sizeof(out), 9);
	double t = now();

	KIT_ASSERT_EQ(close(fd2), 0);
	kit_diag("the other file's close took %.2f s", now() - t);
	KIT_ASSERT(now() - t < 0.5);
	read_all(fd1, in, done, sizeof(in));
	check(in, out, done, "writes across another file's close");
	expect_nothing(fd1);
	KIT_ASSERT_EQ(close(fd1), 0);
}

/* ---- errors reach their owner ---- */

/*
 * The read URB fails (its endpoint stalls): the reader hears it, once, and
 * a writer on another file does not (its write goes through).  The stall
 * is cleared as it is reported, and the next read gets the data.
 */
KIT_TEST(read_error_goes_to_the_reader)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(0), fd2;

	read_urb_idle(fd);
	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);	/* URB started */
	usb_halt(0x81);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	fill(out, sizeof(out), 30);
	KIT_ASSERT_EQ(write(fd2, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EPIPE);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "after the stall");
	KIT_ASSERT_EQ(close(fd2), 0);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A stalled endpoint is cleared (usb_clear_halt()): the stall fails one
 * call with EPIPE, and the next ones go through.  Bulk-in: the read that
 * reports it.  Bulk-out: the stalled write's file hears it (here at
 * close), and the next write, any file's, clears the halt first.
 */
KIT_TEST(stalls_are_cleared)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(0);

	fill(out, sizeof(out), 31);
	usb_halt(0x81);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EPIPE);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "after a stalled read");

	usb_halt(0x02);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_ERRNO(close(fd), EPIPE);	/* it waited for the URB */
	fd = KIT_ASSERT_OK(open(node(), O_RDWR));
	fill(out, sizeof(out), 32);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(close(fd), 0);
	fd = KIT_ASSERT_OK(open(node(), O_RDWR));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out));
	check(in, out, sizeof(out), "after a stalled write");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A call that must not wait: preadv2()/pwritev2() with RWF_NOWAIT in the
 * converted form (IOCB_NOWAIT), a read or write on an O_NONBLOCK file in
 * the legacy one, where the VFS refuses RWF_NOWAIT.
 */
static ssize_t nowait_io(int fd, void *buf, size_t len, int out)
{
	struct iovec iov = { buf, len };
	ssize_t r;
	int e;

	if (!kit_form_converted()) {
		set_nonblock(fd, 1);
		r = out ? write(fd, buf, len) : read(fd, buf, len);
		e = errno;
		set_nonblock(fd, 0);
		errno = e;
		return r;
	}
	return out ? pwritev2(fd, &iov, 1, -1, RWF_NOWAIT) :
		     preadv2(fd, &iov, 1, -1, RWF_NOWAIT);
}

#define NOWAIT_CALLS	8	/* poll() and the call, so many times at most */

/*
 * A halted endpoint, met by a caller who may not wait (as io_uring's first
 * try is): poll() and the call must agree.  A poll() that says ready
 * followed by -EAGAIN, again and again, is a spin (io_uring retries up to
 * 127 times).  The error is reported at once, whatever the flags; the halt
 * is cleared meanwhile, and poll() says ready once the call can proceed.
 */
KIT_TEST(nowait_on_a_halt_ends)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(0), fd2, n, seen;
	ssize_t r;

	/* Bulk-in: the read URB fails with -EPIPE. */
	read_urb_idle(fd);
	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);	/* URB started */
	set_nonblock(fd, 0);
	usb_halt(0x81);
	fill(out, sizeof(out), 40);
	KIT_ASSERT_EQ(write(fd2, out, sizeof(out)), sizeof(out));
	for (n = seen = 0; n < NOWAIT_CALLS; n++) {
		KIT_ASSERT(poll1(fd, POLLIN, POLL_WAIT_S * 1000) & POLLIN);
		r = KIT_NO_WAIT(kit_form_converted() ? SYS_preadv2 : SYS_read,
				nowait_io(fd, in, sizeof(in), 0));
		if (r < 0 && errno == EPIPE && !seen++)
			continue;
		if (r < 0 && errno == EAGAIN)
			continue;
		if (r < 0)
			kit_failed(__FILE__, __LINE__, errno, "read");
		break;
	}
	kit_diag("bulk-in: %d calls", n + 1);
	if (n == NOWAIT_CALLS)
		kit_fail("poll() said POLLIN %d times, the read EAGAIN",
			 NOWAIT_CALLS);
	KIT_ASSERT(seen);
	KIT_ASSERT_EQ(r, sizeof(out));
	check(in, out, sizeof(out), "after the stall");

	/* Bulk-out: a write URB stalls; close() of a dup says so. */
	usb_halt(0x02);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_ERRNO(close(KIT_ASSERT_OK(dup(fd))), EPIPE);
	fill(out, sizeof(out), 41);
	for (n = 0; n < NOWAIT_CALLS; n++) {
		KIT_ASSERT(poll1(fd, POLLOUT, POLL_WAIT_S * 1000) & POLLOUT);
		r = KIT_NO_WAIT(kit_form_converted() ? SYS_pwritev2 :
				SYS_write, nowait_io(fd, out, sizeof(out), 1));
		if (r < 0 && errno == EAGAIN)
			continue;
		if (r < 0)
			kit_failed(__FILE__, __LINE__, errno, "write");
		break;
	}
	kit_diag("bulk-out: %d calls", n + 1);
	if (n == NOWAIT_CALLS)
		kit_fail("poll() said POLLOUT %d times, the write EAGAIN",
			 NOWAIT_CALLS);
	KIT_ASSERT_EQ(r, sizeof(out));
	read_all(fd, in, sizeof(out), sizeof(in));
	check(in, out, sizeof(out), "after the stalled write");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd2), 0);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * While a reader holds read_mutex, a non-blocking read says EAGAIN (it
 * only tries the lock): poll() agrees, not readable, even with data in the
 * buffer, and the reader's end wakes the poller.  The reader waits here in
 * its copy to the user, data in hand, for as long as the test needs: it
 * reads into a page that userfaultfd holds.
 */
KIT_TEST(poll_while_a_reader_holds_read_mutex)
{
	unsigned char out[100], in[100];
	int fd = skel_open(0);
	struct held_page h;
	struct reader r;
	struct poller p;

	fill(out, sizeof(out), 46);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	hold_page(&h);
	start_reader_to(&r, fd, h.page, 10);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, 0), 0);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(kit_form_converted() ? SYS_preadv2 :
				     SYS_read,
				     nowait_io(fd, in, sizeof(in), 0)),
			 EAGAIN);
	start_poller(&p, fd, POLLIN);
	let_go_page(&h);
	pthread_join(r.id, NULL);
	KIT_ASSERT_EQ(r.ret, 10);
	KIT_ASSERT_EQ(join_poller(&p), POLLIN);
	check(h.page, out, 10, "read into the held page");
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), sizeof(out) - 10);
	check(in, out + 10, sizeof(out) - 10, "the rest");
	munmap(h.page, h.size);
	close(h.uffd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A non-blocking read with a stall to report reports it at once, even
 * while a reset holds io_mutex (for a second here: a write in flight that
 * can't reach the device).
 */
KIT_TEST(read_error_during_a_reset)
{
	static unsigned char out[GADGET_QLEN * 1024 + MAX_TRANSFER];
	unsigned char in[4096];
	int fd = skel_open(0), fd2;
	struct resetter r;

	read_urb_idle(fd);
	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);	/* URB started */
	usb_halt(0x81);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	stuck_writes(fd2, out, 42);
	start_reset(&r);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_read, read(fd, in, sizeof(in))),
			 EPIPE);
	KIT_ASSERT(reset_draining(&r));		/* it did not wait for it */
	join_reset(&r);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EPIPE);	/* the reset */
	KIT_ASSERT_ERRNO(close(fd2), EPIPE);
	KIT_ASSERT_EQ(close(fd), 0);
	skel_open(0);	/* drains what the gadget held */
}

/*
 * The last close stops the read URB and drops what it brought in: data
 * that reached the driver while a file was open is not handed to the
 * next opener, maybe much later.
 */
KIT_TEST(last_close_drops_the_read)
{
	unsigned char out[100];
	int fd = skel_open(0);

	fill(out, sizeof(out), 33);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	KIT_ASSERT_EQ(close(fd), 0);
	fd = KIT_ASSERT_OK(open(node(), O_RDWR));
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
}

/* ---- the device goes away ---- */

/*
 * Unplugged under a blocked reader: the read fails with EIO.  The gadget's
 * endpoints go first, so dummy_hcd fails the read URB (-EPROTO; on real
 * hardware -EPROTO, -EILSEQ or -ETIME), or else usbcore ends it with
 * -ESHUTDOWN when it disables the interface before disconnect(): either
 * way a failed transfer, which the driver reports as EIO.  Every later call
 * says ENODEV, and close is clean.
 */
KIT_TEST(unplug_blocked_reader)
{
	int fd = skel_open(0);
	struct reader r;
	char c = 0;

	start_reader(&r, fd, sizeof(r.buf));
	run("usb-loopback unplug");
	pthread_join(r.id, NULL);
	KIT_ASSERT_EQ(r.ret, -1);
	kit_diag("the blocked read failed with %s", strerrorname_np(r.err));
	KIT_ASSERT_EQ(r.err, EIO);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), ENODEV);
	KIT_ASSERT_ERRNO(write(fd, &c, 1), ENODEV);
	KIT_ASSERT_EQ(close(fd), 0);
	run("usb-loopback replug");
	echo_test(4096);
}

/* A file open across unplug and replug: the new node works beside it. */
KIT_TEST(unplug_replug_open_file)
{
	const char *n;
	int fd = skel_open(0), fd2;
	char c = 0, path[64];

	echo(fd, 512, 512, 512);
	snprintf(path, sizeof(path), "%s", node());
	run("usb-loopback unplug");
	KIT_ASSERT_ERRNO(access(path, F_OK), ENOENT);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), ENODEV);
	KIT_ASSERT_ERRNO(write(fd, &c, 1), ENODEV);
	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), ENODEV);

	run("usb-loopback replug");
	n = wait_node();
	kit_diag("%s before, %s after", path, n);
	fd2 = KIT_ASSERT_OK(open(n, O_RDWR));
	echo(fd2, 4096, 4096, 4096);
	KIT_ASSERT_ERRNO(read(fd, &c, 1), ENODEV);
	KIT_ASSERT_EQ(close(fd), 0);
	echo(fd2, 512, 512, 512);
	KIT_ASSERT_EQ(close(fd2), 0);
}

/*
 * A reset (here from usbfs) goes through pre_reset() and post_reset(); it
 * loses whatever the device held, which the next call on each file open
 * across it reports as EPIPE, once: a write, a read, or a close.  Until
 * then poll() says POLLERR.
 */
KIT_TEST(reset_reports_epipe)
{
	int fd = skel_open(0), fd2, fd3, ufd;
	char c = 0;

	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	fd3 = KIT_ASSERT_OK(open(node(), O_RDWR | O_NONBLOCK));
	ufd = KIT_ASSERT_OK(open(usbfs_node(), O_RDWR));
	KIT_ASSERT_OK(ioctl(ufd, USBDEVFS_RESET, 0));
	close(ufd);

	KIT_ASSERT_EQ(poll1(fd3, POLLOUT, 0), POLLERR | POLLOUT);
	KIT_ASSERT_ERRNO(write(fd, &c, 1), EPIPE);
	KIT_ASSERT_ERRNO(write(fd2, &c, 1), EPIPE);
	KIT_ASSERT_ERRNO(read(fd3, &c, 1), EPIPE);
	KIT_ASSERT_EQ(poll1(fd3, POLLOUT, 0), POLLOUT);
	KIT_ASSERT_ERRNO(read(fd3, &c, 1), EAGAIN);	/* once */
	echo(fd, 4096, 4096, 4096);
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd3), 0);
	KIT_ASSERT_EQ(close(fd2), 0);
	KIT_ASSERT_EQ(close(fd), 0);
	fd = KIT_ASSERT_OK(open(node(), O_RDWR));
	ufd = KIT_ASSERT_OK(open(usbfs_node(), O_RDWR));
	KIT_ASSERT_OK(ioctl(ufd, USBDEVFS_RESET, 0));
	close(ufd);
	KIT_ASSERT_ERRNO(close(fd), EPIPE);
}

/*
 * A reset holds io_mutex from pre_reset() to post_reset(), here for a
 * second while a write in flight can't reach the device.  poll() meanwhile
 * returns at once, without POLLIN (a read would wait): it does not wait
 * for the lock to start the read URB, and is woken when the reset ends.
 */
KIT_TEST(poll_during_a_reset)
{
	static unsigned char out[GADGET_QLEN * 1024 + MAX_TRANSFER];
	int fd = skel_open(0), fd2;
	struct resetter r;
	struct poller p;
	char c;

	read_urb_idle(fd);
	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	stuck_writes(fd2, out, 20);
	start_reset(&r);
	KIT_ASSERT_EQ(poll1(fd, POLLIN, 0), 0);
	KIT_ASSERT(reset_draining(&r));		/* poll did not wait for it */
	/* A poller that sleeps now is woken when the reset ends. */
	p = (struct poller){ .fd = fd, .events = POLLIN };
	KIT_ASSERT(!pthread_create(&p.id, NULL, poller_fn, &p));
	join_reset(&r);
	KIT_ASSERT(join_poller(&p) & POLLERR);	/* the reset, for fd */
	KIT_ASSERT_ERRNO(read(fd, &c, 1), EPIPE);
	KIT_ASSERT_ERRNO(close(fd2), EPIPE);
	KIT_ASSERT_EQ(close(fd), 0);
	skel_open(0);	/* drains what the gadget held */
}

/*
 * Writes are stopped on fd: poll() says not writable, a write that may not
 * wait (of LEN bytes of pattern SEED, into BUF) says EAGAIN at once, and a
 * poller started in P waits to be woken when they start again.
 */
static void expect_writes_stopped(int fd, unsigned char *buf, size_t len,
				  uint32_t seed, struct poller *p)
{
	KIT_ASSERT_EQ(poll1(fd, POLLOUT, 0), 0);
	fill(buf, len, seed);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(kit_form_converted() ? SYS_pwritev2 :
				     SYS_write,
				     nowait_io(fd, buf, len, 1)),
			 EAGAIN);
	start_poller(p, fd, POLLOUT);
}

/*
 * Writes stop while a reset holds io_mutex (here for a second, while a
 * write in flight can't reach the device), and poll() agrees: not
 * writable, and a write that may not wait says EAGAIN.  A poll() that said
 * writable, followed by EAGAIN (or by a wait for the lock), would make a
 * poll() and RWF_NOWAIT loop spin for as long as the reset takes.  The end
 * of the reset wakes the poller.  (A read that would have to start the
 * read URB has nothing to read yet: poll() says so, and it says EAGAIN.)
 */
KIT_TEST(nowait_write_during_a_reset)
{
	static unsigned char out[GADGET_QLEN * 1024 + MAX_TRANSFER];
	unsigned char mine[100], in[100];
	int fd = skel_open(0), fd2;
	struct resetter r;
	struct poller p;

	read_urb_idle(fd);
	fd2 = KIT_ASSERT_OK(open(node(), O_RDWR));
	stuck_writes(fd2, out, 21);
	start_reset(&r);
	expect_writes_stopped(fd, mine, sizeof(mine), 22, &p);
	KIT_ASSERT(reset_draining(&r));		/* all that during the reset */
	join_reset(&r);
	KIT_ASSERT_EQ(join_poller(&p), POLLERR | POLLOUT);
	KIT_ASSERT_ERRNO(write(fd, mine, sizeof(mine)), EPIPE); /* the reset */
	KIT_ASSERT_EQ(nowait_io(fd, mine, sizeof(mine), 1), sizeof(mine));
	KIT_ASSERT_ERRNO(close(fd2), EPIPE);
	read_all(fd, in, sizeof(in), sizeof(in));
	check(in, mine, sizeof(mine), "written after the reset");
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * With no file open, nor anything else holding the device awake, the USB
 * core suspends it at once (autosuspend_delay_ms 0) and keeps it so: wait
 * for that, 5 s at most.  Skips without runtime PM (CONFIG_PM).
 */
static void expect_autosuspend(void)
{
	char control[300], delay[300], old_control[16], old_delay[16];
	char status[300], buf[32];
	int i;

	snprintf(control, sizeof(control), "%s/power/control", usbdir);
	snprintf(delay, sizeof(delay), "%s/power/autosuspend_delay_ms", usbdir);
	snprintf(status, sizeof(status), "%s/power/runtime_status", usbdir);
	/* The files exist only with runtime PM (CONFIG_PM). */
	if (access(status, F_OK) && errno == ENOENT)
		KIT_SKIP("no power/runtime_status: the kernel is built without CONFIG_PM");
	KIT_ASSERT_OK(read_sysfs(control, old_control, sizeof(old_control)));
	KIT_ASSERT_OK(read_sysfs(delay, old_delay, sizeof(old_delay)));
	write_sysfs(delay, "0");
	write_sysfs(control, "auto");
	for (i = 0; i < 500; i++) {
		KIT_ASSERT_OK(read_sysfs(status, buf, sizeof(buf)));
		if (!strcmp(buf, "suspended"))
			break;
		sleep_ms(10);
	}
	write_sysfs(delay, old_delay);
	write_sysfs(control, old_control);
	if (strcmp(buf, "suspended"))
		kit_fail("runtime_status is still %s", buf);
}

/*
 * With no file open the USB core may suspend the device (suspend() draws
 * down the read URB left running); an open wakes it up (resume()).
 */
KIT_TEST(autosuspend_and_resume)
{
	char status[300], buf[32];
	int fd = skel_open(0);

	echo(fd, 512, 512, 4096);	/* the close stops the read URB */
	KIT_ASSERT_EQ(close(fd), 0);
	expect_autosuspend();

	snprintf(status, sizeof(status), "%s/power/runtime_status", usbdir);
	fd = skel_open(0);
	KIT_ASSERT_OK(read_sysfs(status, buf, sizeof(buf)));
	KIT_ASSERT(!strcmp(buf, "active"));
	echo(fd, 4096, 4096, 4096);
	KIT_ASSERT_EQ(close(fd), 0);
}

/*
 * A stall is cleared by skel_halt_work(), which holds io_mutex meanwhile
 * (around a control transfer, which a device may take long to answer):
 * writes stop from the stall to the work's end, and poll() agrees, as
 * during a reset.  kit_skelhold holds the lock here, for as long as the
 * test needs, and the work waits for it; the stall is bulk-in's, so that
 * bulk-out itself is fine.  The work holds the device awake until it ends,
 * and then lets it sleep: with no file open, it autosuspends.
 */
KIT_TEST(nowait_write_while_a_halt_is_cleared)
{
	unsigned char out[100], in[4096];
	int fd = skel_open(0);
	struct poller p;

	read_urb_idle(fd);
	set_nonblock(fd, 1);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EAGAIN);	/* URB started */
	set_nonblock(fd, 0);
	hold_io_mutex();
	usb_halt(0x81);
	/* The read URB stalled (a read says EPIPE): the work is queued. */
	KIT_ASSERT_EQ(poll1(fd, POLLIN, POLL_WAIT_S * 1000), POLLIN);
	expect_writes_stopped(fd, out, sizeof(out), 44, &p);
	let_go_io_mutex();
	KIT_ASSERT_EQ(join_poller(&p), POLLOUT);
	KIT_ASSERT_ERRNO(read(fd, in, sizeof(in)), EPIPE);
	KIT_ASSERT_EQ(nowait_io(fd, out, sizeof(out), 1), sizeof(out));
	read_all(fd, in, sizeof(out), sizeof(in));
	check(in, out, sizeof(out), "after the stall");
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);
	expect_autosuspend();
	echo_test(512);		/* and wakes up */
}

/*
 * A reset holds io_mutex from pre_reset() to post_reset(), through the
 * drain of every file's writes (SKEL_DRAIN_TIMEOUT_MS a file).  An open()
 * that waits for it meanwhile ends at a signal: EINTR, with a handler that
 * does not ask for a restart.  kit_skelhold holds the lock here, as the
 * reset would, for as long as the test needs.  The failed open leaves
 * nothing behind: the device goes to sleep again once the lock is let go
 * (no runtime PM reference kept), and the next open works.  (A reference
 * on the device's data, or a file left on its list, is for the debug
 * kernel's kmemleak and KASAN to find, at unload.)
 */
static void ignore_signal(int sig)
{
	(void)sig;
}

KIT_TEST(open_ends_at_a_signal)
{
	struct sigaction sa = { .sa_handler = ignore_signal };	/* no restart */
	struct racer r;
	int err, fd, held;

	fd = skel_open(0);
	KIT_ASSERT_EQ(close(fd), 0);
	KIT_ASSERT_OK(sigaction(SIGUSR1, &sa, NULL));
	hold_io_mutex();
	start_racer(&r, RACE_OPEN, -1);
	err = pthread_kill(r.id, SIGUSR1);
	if (err)
		kit_fail("pthread_kill: %s", strerror(err));
	/*
	 * Only the signal can end the open while the tool holds the lock;
	 * else it ends when the tool lets go by itself (hold_ms).
	 */
	pthread_join(r.id, NULL);
	held = kit_module_param("kit_skelhold", "held");
	KIT_ASSERT_OK(syscall(SYS_delete_module, "kit_skelhold", O_NONBLOCK));
	if (held != 1)
		kit_fail("open() ended only when the lock was let go: %ld, %s",
			 r.ret, strerror(r.err));
	KIT_ASSERT_EQ(r.ret, -1);
	KIT_ASSERT_EQ(r.err, EINTR);
	expect_autosuspend();
	echo_test(512);
}

/* ---- close ---- */

/* close() waits for the writes in flight, and says if it had to kill some. */
KIT_TEST(close_waits_for_writes)
{
	static unsigned char out[64 * MAX_TRANSFER], in[sizeof(out)];
	int fd = skel_open(0);
	double t;
	size_t n;

	/* What the gadget can take gets there: close succeeds. */
	n = GADGET_QLEN * packet / 2;
	fill(out, n, 5);
	write_all(fd, out, n, MAX_TRANSFER);
	KIT_ASSERT_EQ(close(fd), 0);
	fd = KIT_ASSERT_OK(open(node(), O_RDWR));
	read_all(fd, in, n, sizeof(in));
	check(in, out, n, "written before close");

	/* Writes that can't get there are killed after a while: EIO. */
	fill_up(fd, out, sizeof(out), 6);
	t = now();
	KIT_ASSERT_ERRNO(close(fd), EIO);
	kit_diag("close took %.1f s", now() - t);
	KIT_ASSERT(now() - t > 0.5);
	skel_open(0);	/* drains what the gadget held */
}

/* ---- the module ---- */

/*
 * rmmod with the device bound: refused while a file is open (the fops
 * owner holds the module), fine once it is closed.  The module is loaded
 * again at the end, for the tests after this one and kit-run's rmmod.
 */
KIT_TEST(rmmod_bound)
{
	int fd = skel_open(0), kfd;

	KIT_ASSERT_ERRNO(syscall(SYS_delete_module, MODULE, O_NONBLOCK),
			 EWOULDBLOCK);
	KIT_ASSERT_EQ(close(fd), 0);
	KIT_ASSERT_OK(syscall(SYS_delete_module, MODULE, O_NONBLOCK));
	KIT_ASSERT_ERRNO(access("/sys/module/" MODULE, F_OK), ENOENT);
	KIT_ASSERT(!node());

	kfd = KIT_ASSERT_OK(open(kit_module_file(MODULE), O_RDONLY));
	KIT_ASSERT_OK(syscall(SYS_finit_module, kfd, "", 0));
	close(kfd);
	echo_test(4096);
}

/* ---- super speed ---- */

/*
 * dummy_hcd reloaded with is_super_speed=1: 1024-byte packets, which the
 * driver takes from the endpoint (a read returns at most one).  High speed
 * is restored at the end.
 */
KIT_TEST_TIMEOUT(super_speed_echo, 300)
{
	static const size_t sizes[] = { 1, 511, 512, 1023, 1024, 4096, 65536 };
	unsigned char out[4096], in[4096];
	size_t i;
	int fd;

	run("usb-loopback up --super");
	fd = skel_open(0);
	KIT_ASSERT_EQ(packet, 1024);
	fill(out, sizeof(out), 1024);
	KIT_ASSERT_EQ(write(fd, out, sizeof(out)), sizeof(out));
	KIT_ASSERT_EQ(read(fd, in, sizeof(in)), 1024);
	read_all(fd, in + 1024, sizeof(in) - 1024, sizeof(in));
	check(in, out, sizeof(in), "super speed");
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		echo(fd, sizes[i], 65536, 65536);
	echo(fd, MIB, 3000, 1000);
	expect_nothing(fd);
	KIT_ASSERT_EQ(close(fd), 0);

	run("usb-loopback up");
	wait_node();
	KIT_ASSERT_EQ(packet, 512);
	echo_test(512);
}

int main(int argc, char **argv)
{
	return kit_test_main(argc, argv);
}
