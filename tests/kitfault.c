// SPDX-License-Identifier: GPL-2.0
/*
 * kitfault - every entry point of a driver, failed at each injection point
 * it reaches in turn, on a kernel with fault injection (the debug kernel).
 *
 *	kitfault DRIVER --form FORM [--run ENTRY,...] [--list]
 *
 * (as root, with DRIVER's FORM module loaded, as kit-run --faults runs it;
 * it leaves the module loaded and the device as it found it).
 *
 * How: writing N to /proc/thread-self/fail-nth makes the N-th injection
 * point that this thread reaches fail: a kmalloc() or kmem_cache_alloc()
 * (failslab), an alloc_pages() (fail_page_alloc) or a user copy
 * (fail_usercopy: copy_to_user(), copy_from_user() and the iterator copies;
 * on x86 not get_user() or put_user()).  Reading it back gives 0 once the
 * failure was injected, and what was left of N when the call ended without
 * reaching it.  fault_setup() makes these points count only where a
 * module's code is on the stack (the stack filter: the modules' address
 * range), so that what fails is what the driver asked for, directly or
 * through the kernel functions it calls, and not the VFS before it; it
 * fails sleeping allocations too (ignore-gfp-wait off), and keeps the
 * checkers' own caches (kmemleak's, DEBUG_OBJECTS') out of failslab.
 *
 * For each entry point (the list is each driver's ops[] below): first the
 * call without injection, whose result and effect are the baseline.  Then
 * for N = 1, 2, ...: put the device in its start state, inject the N-th
 * failure, make the call, read the state back.  The call must have
 *   - failed with a clean errno (ENOMEM, EFAULT; the op may add others)
 *     and left the state as it was before the call, or
 *   - returned a short count whose effect is that count's (readv, writev),
 *     or
 *   - absorbed the failure: done what the baseline did (a lost uevent);
 * and then the same call without injection must do what the baseline did.
 * The sweep ends at the first N that the call no longer reaches: it ran
 * with none left to inject.  Loading, which may fail at every point, must
 * leave nothing behind: no /sys/module/MOD, none of the module's files.
 * Leaks and the checkers' reports are for kit-run: kmemleak after the
 * module's unload, the guest log after the run.
 *
 * The state is the driver's own: the events in the fifo, the attributes'
 * values, the watchdog's status, timeout and pretimeout, what the USB
 * device echoes back; with what the call itself returned (the bytes a read
 * got, poll's events).  Each driver's state() reads it, which may change
 * it, and leaves the device idle; prepare() puts it back.
 *
 * A point that does not end so is said (the first few, as kitfault.c:LINE)
 * and counted, and the sweep goes on to the next one.  Each entry point is
 * a KTAP test, failed if any of its points did not end cleanly, with a
 * line saying how many points it reached and how each ended; a last line
 * counts them for the driver and form: the points reached, and how many
 * did not end cleanly.
 *
 * What the stack filter leaves out: what the kernel allocates for the
 * driver before calling it (copy_splice_read()'s pages, seq_file's buffer,
 * a readv's iovec array), and whatever runs in another task (io_uring's
 * io-wq workers, which a form without FMODE_NOWAIT always gets; a
 * workqueue).  fail-nth is per task: those points are never failed here.
 *
 * KITFAULT_VERBOSE=1 in its environment puts each injected failure's stack
 * in the kernel log (the faults' "verbose"), to find which call failed.
 */
#include "kit_test.h"

#include <glob.h>
#include <liburing.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>

#include <linux/watchdog.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define STATE_MAX	1024
/* A sweep that reaches more points than this is going round in circles. */
#define MAX_POINTS	2000
/* Per entry point: loading a USB driver may reach a hundred points. */
#define SWEEP_TIMEOUT	900

#define FAULT_DIR	"/sys/kernel/debug"
/*
 * x86-64's modules area (MODULES_VADDR to MODULES_END:
 * arch/x86/include/asm/pgtable_64_types.h), where every module's code
 * lives, init code included.  MODULES_VADDR is the end of the kernel
 * image's area: 0xffffffffa0000000 without CONFIG_RANDOMIZE_BASE (the
 * debug kernel), 0xffffffffc0000000 with it, where KASLR may put the
 * image itself above 0xffffffffa0000000.  So the range starts here or at
 * the image's end (_end in /proc/kallsyms), whichever is higher.
 */
#define MODULES_START	0xffffffffa0000000UL
#define MODULES_END	"0xffffffffff000000"

/* An entry point: how to set it up, and the call itself. */
struct fault_op {
	const char *name;
	void (*prepare)(void);	/* the start state; opens what call needs */
	long (*call)(void);	/* one system call: its result, or -1 */
	/*
	 * Optional: is this result and state, not the baseline's, still
	 * clean?  A short count (readv, writev), poll saying readable when it
	 * could not start a read.
	 */
	bool (*also_ok)(long ret, const char *state);
	int errno2;		/* a clean errno besides ENOMEM and EFAULT */
	int want_errno;		/* the plain call must fail so (a bad load) */
};

#define OP(n, p, c, ...) { .name = n, .prepare = p, .call = c, __VA_ARGS__ }

struct fault_driver {
	const char *name;	/* the kit's: misc-fifo */
	const char *module;	/* its module: kitfifo */
	const char *path;	/* what a loaded module makes */
	void (*state)(char *s, size_t size);	/* see the top */
	void (*quiesce)(void);	/* before an unload: stop what holds it */
	const struct fault_op *ops;	/* ends with an empty one */
};

static const struct fault_driver *drv;

/*
 * What an op has open, closed by release_all(); and out, what the call
 * brought back (a read's bytes, poll's events), which is part of the state.
 */
static int fd = -1, fd2 = -1, pipefd[2] = { -1, -1 }, epfd = -1, kofd = -1;
static struct io_uring ring;
static bool ring_up;
static char out[STATE_MAX];
static char buf[65536];

/*
 * Shared with kitfault's parent, over every entry point: the injection
 * points reached, and those of them that did not end cleanly.  Counted as
 * the sweeps go, so that one cut short (a set-up that failed, a timeout)
 * still counts what it reached.
 */
static unsigned long *points;
#define POINTS_REACHED	0
#define POINTS_BAD	1

/* ---- the fault injection ---- */

static int write_file(const char *path, const char *val)
{
	int f = open(path, O_WRONLY);
	ssize_t n;

	if (f < 0)
		return -1;
	n = write(f, val, strlen(val));
	close(f);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static int read_file(const char *path, char *s, size_t size)
{
	int f = open(path, O_RDONLY);
	ssize_t n;

	if (f < 0)
		return -1;
	n = read(f, s, size - 1);
	close(f);
	if (n < 0)
		return -1;
	s[n] = '\0';
	return 0;
}

static void must_write(const char *path, const char *val)
{
	if (write_file(path, val))
		kit_failed(__FILE__, __LINE__, errno, "cannot write %s to %s",
			   val, path);
}

/*
 * Where the modules' code starts: MODULES_START, or above the kernel
 * image if KASLR put its end past that (see MODULES_START).
 */
static unsigned long modules_start(void)
{
	unsigned long start = MODULES_START, addr;
	char line[256], type, name[128];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return start;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &addr, &type, name) == 3 &&
		    !strcmp(name, "_end")) {
			if (addr > start)	/* 0 if kallsyms hides them */
				start = (addr + 0xfff) & ~0xfffUL;
			break;
		}
	}
	fclose(f);
	return start;
}

/*
 * Configure failslab, fail_page_alloc and fail_usercopy for fail-nth (see
 * the top).  Their probability stays 0: nothing fails at random.  Returns
 * a reason if this kernel can't, NULL when done.
 */
static const char *fault_setup(void)
{
	static const char * const attrs[] = {
		"failslab", "fail_page_alloc", "fail_usercopy",
	};
	static const char * const checkers[] = {
		"kmemleak_object", "kmemleak_scan_area", "debug_objects_cache",
	};
	struct utsname u;
	char path[256], start[32];
	const char *verbose;
	glob_t g;
	size_t i, j, refused = 0;

	if (access("/proc/thread-self/fail-nth", W_OK))
		return "no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)";
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		snprintf(path, sizeof(path), FAULT_DIR "/%s/require-start",
			 attrs[i]);
		if (access(path, W_OK))
			return "no stack filter (CONFIG_FAULT_INJECTION_*)";
	}
	if (uname(&u) || strcmp(u.machine, "x86_64"))
		return "the modules' address range is known for x86_64 only";

	snprintf(start, sizeof(start), "%#lx", modules_start());
	/* KITFAULT_VERBOSE=1: each failure's stack in the kernel log. */
	verbose = getenv("KITFAULT_VERBOSE");
	if (!verbose || !*verbose)
		verbose = "0";
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct { const char *file, *val; } set[] = {
			{ "require-start", start },
			{ "require-end", MODULES_END },
			{ "stacktrace-depth", "32" },	/* the most it takes */
			{ "verbose", verbose },
		};

		for (j = 0; j < ARRAY_SIZE(set); j++) {
			snprintf(path, sizeof(path), FAULT_DIR "/%s/%s",
				 attrs[i], set[j].file);
			must_write(path, set[j].val);
		}
	}
	must_write(FAULT_DIR "/failslab/ignore-gfp-wait", "N");
	must_write(FAULT_DIR "/fail_page_alloc/ignore-gfp-wait", "N");
	must_write(FAULT_DIR "/fail_page_alloc/ignore-gfp-highmem", "N");
	must_write(FAULT_DIR "/fail_page_alloc/min-order", "0");
	/*
	 * failslab fails only the caches marked for it: all but the checkers'
	 * own, whose failures would only make them drop what they track.
	 */
	must_write(FAULT_DIR "/failslab/cache-filter", "Y");
	if (glob("/sys/kernel/slab/*/failslab", 0, NULL, &g))
		return "no /sys/kernel/slab/*/failslab";
	for (i = 0; i < g.gl_pathc; i++) {
		bool mark = true;

		for (j = 0; j < ARRAY_SIZE(checkers); j++)
			if (strstr(g.gl_pathv[i], checkers[j]))
				mark = false;
		/* A merged cache refuses (EINVAL): slub_debug merges none. */
		if (write_file(g.gl_pathv[i], mark ? "1" : "0") && mark)
			refused++;
	}
	if (refused)
		kit_diag("%zu of %zu slab caches refuse failslab (merged?)",
			 refused, g.gl_pathc);
	globfree(&g);
	return NULL;
}

/* Fail the n-th injection point this thread reaches from now on. */
static void fail_nth(unsigned int n)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", n);
	must_write("/proc/thread-self/fail-nth", val);
}

/* Stop injecting; how many points were left (0: the failure came). */
static unsigned int fail_nth_left(void)
{
	char val[16];

	if (read_file("/proc/thread-self/fail-nth", val, sizeof(val)))
		kit_fail("cannot read /proc/thread-self/fail-nth");
	must_write("/proc/thread-self/fail-nth", "0");
	return strtoul(val, NULL, 10);
}

/* ---- the sweep ---- */

static void release_all(void)
{
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	if (epfd >= 0)
		close(epfd);
	if (kofd >= 0)
		close(kofd);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	if (ring_up)
		io_uring_queue_exit(&ring);
	fd = -1;
	fd2 = -1;
	epfd = -1;
	kofd = -1;
	pipefd[0] = -1;
	pipefd[1] = -1;
	ring_up = false;
}

static bool loaded(void)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/module/%s", drv->module);
	return !access(path, F_OK);
}

/* The state: the driver's, or what is left of an unloaded module. */
static void get_state(char *s, size_t size)
{
	if (loaded()) {
		drv->state(s, size);
		return;
	}
	release_all();
	snprintf(s, size, "not loaded%s",
		 access(drv->path, F_OK) ? "" : ", but its files are there");
}

static bool clean_errno(const struct fault_op *op, int e)
{
	return e == ENOMEM || e == EFAULT || (op->errno2 && e == op->errno2);
}

/* Two buffers in turn: a message may hold two results. */
static const char *result(long r, int e)
{
	static char bufs[2][64];
	static int turn;
	char *s = bufs[turn ^= 1];

	if (r < 0)
		snprintf(s, sizeof(bufs[0]), "-1 (%s)", strerrorname_np(e));
	else
		snprintf(s, sizeof(bufs[0]), "%ld", r);
	return s;
}

/* Run the call once, without injection; its result and then the state. */
static long plain(const struct fault_op *op, int *e, char *s)
{
	long r;

	op->prepare();
	out[0] = '\0';
	errno = 0;
	r = op->call();
	*e = errno;
	get_state(s, STATE_MAX);
	return r;
}

/* The first few of an entry point's unclean points are said, not all. */
#define BAD_SAID	10

/*
 * Something that should not have happened at a point: said (the first
 * BAD_SAID times) and counted; the sweep goes on to the next point, so
 * that the counts say how many points ended cleanly and how many not.
 */
#define bad_point(bad, fmt, ...)					\
	do {								\
		if ((bad)++ < BAD_SAID)					\
			kit_diag("%s:%d: " fmt, __FILE__, __LINE__,	\
				 ##__VA_ARGS__);			\
	} while (0)

static void count_point(int which)
{
	__atomic_add_fetch(&points[which], 1, __ATOMIC_SEQ_CST);
}

static void sweep(const struct fault_op *op)
{
	char before[STATE_MAX], want[STATE_MAX], got[STATE_MAX];
	/* How the points ended: failed the call, another way, absorbed. */
	unsigned int n, how[3] = { 0 }, unclean = 0, bad = 0, was, k;
	int e0, e;
	long r0, r;
	time_t start = time(NULL);

	op->prepare();
	out[0] = '\0';
	get_state(before, sizeof(before));
	r0 = plain(op, &e0, want);
	kit_diag("%s: returns %s, state %s", op->name, result(r0, e0), want);
	if (op->want_errno && (r0 >= 0 || e0 != op->want_errno))
		bad_point(bad, "%s: the plain call returns %s, not -1 (%s)",
			  op->name, result(r0, e0),
			  strerrorname_np(op->want_errno));

	for (n = 1; n <= MAX_POINTS; n++) {
		op->prepare();
		out[0] = '\0';
		fail_nth(n);
		errno = 0;
		r = op->call();
		e = errno;
		if (fail_nth_left()) {
			/* None left to inject: this was a plain call. */
			get_state(got, sizeof(got));
			if (r != r0 || (r < 0 && e != e0) || strcmp(got, want))
				bad_point(bad, "%s, none left to inject: %s, state %s",
					  op->name, result(r, e), got);
			break;
		}
		count_point(POINTS_REACHED);
		was = bad;
		k = 0;
		get_state(got, sizeof(got));
		if (r == r0 && (r >= 0 || e == e0) && !strcmp(got, want)) {
			k = 2;
		} else if (r < 0 && clean_errno(op, e)) {
			if (strcmp(got, before))
				bad_point(bad, "%s, failure %u: %s, state %s, was %s",
					  op->name, n, result(r, e), got,
					  before);
		} else if (op->also_ok && op->also_ok(r, got)) {
			k = 1;
		} else {
			bad_point(bad, "%s, failure %u: %s, state %s (plain: %s, %s)",
				  op->name, n, result(r, e), got,
				  result(r0, e0), want);
		}
		/* The next plain call works. */
		r = plain(op, &e, got);
		if (r != r0 || (r < 0 && e != e0) || strcmp(got, want))
			bad_point(bad, "%s after failure %u: %s, state %s",
				  op->name, n, result(r, e), got);
		/* One point, counted once, whatever went wrong with it. */
		if (bad != was) {
			unclean++;
			count_point(POINTS_BAD);
		} else {
			how[k]++;
		}
	}
	if (n > MAX_POINTS)
		bad_point(bad, "%s: still reaching points after %u", op->name,
			  MAX_POINTS);
	kit_diag("%s: %u injection points reached in %lld s, %s", op->name,
		 n - 1, (long long)(time(NULL) - start),
		 bad ? "NOT each ended cleanly" : "each ended cleanly");
	kit_diag("%s: %u failed the call, %u another way, %u absorbed, %u not cleanly",
		 op->name, how[0], how[1], how[2], unclean);
	/* Nothing was failed: only a bad load's errno was checked, if that. */
	if (n == 1 && !bad && !op->want_errno)
		KIT_SKIP("reaches no injection point here");
	if (bad)
		kit_fail("%s: %u of %u injection points did not end cleanly%s",
			 op->name, unclean, n - 1,
			 n > MAX_POINTS ? "; the points never ran out" :
			 unclean ? "" : "; the plain calls went wrong (above)");
}

/* ---- common entry points ---- */

static void append(char *s, size_t size, const char *fmt, ...)
{
	size_t len = strlen(s);
	va_list ap;

	if (len >= size - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(s + len, size - len, fmt, ap);
	va_end(ap);
}

/* Printable bytes, for the state: "one\n" as one\n. */
static void append_bytes(char *s, size_t size, const char *b, size_t len)
{
	size_t i;

	for (i = 0; i < len && i < 64; i++) {
		if (b[i] == '\n')
			append(s, size, "\\n");
		else if (b[i] >= ' ' && b[i] < 127)
			append(s, size, "%c", b[i]);
		else
			append(s, size, "\\x%02x", (unsigned char)b[i]);
	}
	if (len > 64)
		append(s, size, "...(%zu bytes)", len);
}

/* What a reading call got: r bytes of buf (nothing if it failed). */
static long got_bytes(long r)
{
	if (r > 0)
		append_bytes(out, sizeof(out), buf, r);
	return r;
}

static long got_iov(long r, const struct iovec *iov, int n)
{
	long left = r;
	int i;

	for (i = 0; i < n && left > 0; i++) {
		size_t len = (size_t)left;

		if (len > iov[i].iov_len)
			len = iov[i].iov_len;

		append(out, sizeof(out), "[");
		append_bytes(out, sizeof(out), iov[i].iov_base, len);
		append(out, sizeof(out), "]");
		left -= len;
	}
	return r;
}

static void uring_setup(void)
{
	int ret = io_uring_queue_init(4, &ring, 0);

	if (ret)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
	ring_up = true;
}

/* One read or write through io_uring, waited for: its result, or -1. */
static long uring_rw(bool write_op, void *p, size_t len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	struct io_uring_cqe *cqe;
	int ret;

	if (write_op)
		io_uring_prep_write(sqe, fd, p, len, -1);
	else
		io_uring_prep_read(sqe, fd, p, len, -1);
	ret = io_uring_submit_and_wait(&ring, 1);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	if (io_uring_peek_cqe(&ring, &cqe))
		kit_fail("io_uring: no completion");
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

static long call_read(void)
{
	return got_bytes(read(fd, buf, 4096));
}

static long call_nowait_read(void)
{
	struct iovec iov = { buf, 4096 };

	return got_bytes(preadv2(fd, &iov, 1, -1, RWF_NOWAIT));
}

static long call_uring_read(void)
{
	return got_bytes(uring_rw(false, buf, 4096));
}

/* Splice what the device gives into a pipe; release_all() empties it. */
static long call_splice(void)
{
	return splice(fd, NULL, pipefd[1], NULL, 4096, SPLICE_F_NONBLOCK);
}

/* What the splice put in the pipe, for the state. */
static void splice_got(void)
{
	ssize_t n;

	if (pipefd[0] < 0)
		return;
	n = read(pipefd[0], buf, sizeof(buf));
	if (n > 0) {
		append(out, sizeof(out), "spliced ");
		append_bytes(out, sizeof(out), buf, n);
	}
}

static long call_poll(void)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	int r = poll(&p, 1, 1000);

	if (r >= 0)
		append(out, sizeof(out), "revents %#x", p.revents);
	return r;
}

static long call_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLPRI };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static long call_release(void)
{
	int r = close(fd);

	fd = -1;
	return r;
}

/* ---- loading and unloading ---- */

static void unload(void)
{
	int tries;

	release_all();
	if (!loaded())
		return;
	if (drv->quiesce)
		drv->quiesce();
	/* A file closed a moment ago may still hold it: try for a second. */
	for (tries = 0; syscall(SYS_delete_module, drv->module, O_NONBLOCK);
	     tries++) {
		if (tries == 100)
			kit_failed(__FILE__, __LINE__, errno, "cannot remove module %s",
				   drv->module);
		usleep(10000);
	}
}

static void load(void)
{
	const char *ko = kit_module_file(drv->module);

	if (loaded())
		return;
	kofd = open(ko, O_RDONLY | O_CLOEXEC);
	if (kofd < 0)
		kit_failed(__FILE__, __LINE__, errno, "cannot open %s", ko);
	if (syscall(SYS_finit_module, kofd, "", 0))
		kit_failed(__FILE__, __LINE__, errno, "cannot insert module %s", ko);
	close(kofd);
	kofd = -1;
}

static void prepare_load(void)
{
	const char *ko = kit_module_file(drv->module);

	unload();
	kofd = open(ko, O_RDONLY | O_CLOEXEC);
	if (kofd < 0)
		kit_failed(__FILE__, __LINE__, errno, "cannot open %s", ko);
}

static long call_load(void)
{
	return syscall(SYS_finit_module, kofd, "", 0);
}

/*
 * A load with a parameter that the module's init (or the parameter's own
 * setter) refuses: -EINVAL, and nothing left behind.
 */
static long call_load_bad(const char *params)
{
	return syscall(SYS_finit_module, kofd, params, 0);
}

static void prepare_unload(void)
{
	load();
	release_all();
	if (drv->quiesce)
		drv->quiesce();
}

static long call_unload(void)
{
	return syscall(SYS_delete_module, drv->module, O_NONBLOCK);
}

/* ---- misc-fifo: /dev/kitfifo, a queue of events ---- */

#define FIFO_DEV	"/dev/kitfifo"

/* Read every event out of the queue; appended to s as [event]. */
static void fifo_drain(int f, char *s, size_t size)
{
	ssize_t n;

	while ((n = read(f, buf, sizeof(buf))) >= 0) {
		append(s, size, "[");
		append_bytes(s, size, buf, n);
		append(s, size, "]");
	}
	if (errno != EAGAIN)
		kit_failed(__FILE__, __LINE__, errno, "reading " FIFO_DEV);
}

static int fifo_open(void)
{
	return KIT_ASSERT_OK(open(FIFO_DEV, O_RDWR | O_NONBLOCK));
}

/* The start state: events "one" and "two" queued, nothing open. */
static void fifo_start(void)
{
	char junk[STATE_MAX] = "";
	int f;

	release_all();
	load();
	f = fifo_open();
	fifo_drain(f, junk, sizeof(junk));
	KIT_ASSERT_EQ(write(f, "one", 3), 3);
	KIT_ASSERT_EQ(write(f, "two", 3), 3);
	close(f);
}

static void fifo_state(char *s, size_t size)
{
	int f;

	splice_got();
	release_all();
	f = fifo_open();
	snprintf(s, size, "got '%s', queue ", out);
	fifo_drain(f, s, size);
	close(f);
}

static void fifo_prepare(void)
{
	fifo_start();
	fd = fifo_open();
}

static void fifo_prepare_uring(void)
{
	fifo_prepare();
	uring_setup();
}

static void fifo_prepare_pipe(void)
{
	fifo_prepare();
	KIT_ASSERT_OK(pipe2(pipefd, O_NONBLOCK));
}

static void fifo_prepare_epoll(void)
{
	fifo_prepare();
	epfd = KIT_ASSERT_OK(epoll_create1(0));
}

static long fifo_open_call(void)
{
	fd = open(FIFO_DEV, O_RDWR | O_NONBLOCK);
	return fd < 0 ? -1 : 0;
}

static long fifo_write(void)
{
	return write(fd, "three", 5);
}

/* The event "one" across two segments (the legacy form: EMSGSIZE). */
static long fifo_readv(void)
{
	char *b = buf;
	struct iovec iov[3] = { { b, 2 }, { b + 2, 8 }, { b + 10, 8 } };

	return got_iov(readv(fd, iov, 3), iov, 3);
}

static long fifo_writev(void)
{
	struct iovec iov[3] = { { "a", 1 }, { "bb", 2 }, { "ccc", 3 } };

	return writev(fd, iov, 3);
}

/* Legacy: an event per segment; a short count is the first ones. */
static bool fifo_writev_partial(long r, const char *state)
{
	return (r == 1 && !strcmp(state, "got '', queue [one][two][a]")) ||
	       (r == 3 && !strcmp(state, "got '', queue [one][two][a][bb]"));
}

static long fifo_nowait_write(void)
{
	struct iovec iov = { "three", 5 };

	return pwritev2(fd, &iov, 1, -1, RWF_NOWAIT);
}

static long fifo_uring_write(void)
{
	return uring_rw(true, "three", 5);
}

static long fifo_ioctl(void)
{
	int n = -1;
	long r = ioctl(fd, FIONREAD, &n);

	if (!r)
		append(out, sizeof(out), "FIONREAD %d", n);
	return r;
}

static long fifo_load_bad_max_event(void)
{
	return call_load_bad("max_event=0");
}

static long fifo_load_bad_queue_bytes(void)
{
	return call_load_bad("queue_bytes=1");
}

static const struct fault_op fifo_ops[] = {
	OP("open", fifo_start, fifo_open_call),
	OP("read", fifo_prepare, call_read),
	OP("write", fifo_prepare, fifo_write),
	OP("readv", fifo_prepare, fifo_readv),
	OP("writev", fifo_prepare, fifo_writev, .also_ok = fifo_writev_partial),
	OP("preadv2-nowait", fifo_prepare, call_nowait_read),
	OP("pwritev2-nowait", fifo_prepare, fifo_nowait_write),
	OP("io_uring-read", fifo_prepare_uring, call_uring_read),
	OP("io_uring-write", fifo_prepare_uring, fifo_uring_write),
	OP("splice", fifo_prepare_pipe, call_splice),
	OP("ioctl", fifo_prepare, fifo_ioctl),
	OP("poll", fifo_prepare, call_poll),
	OP("epoll", fifo_prepare_epoll, call_epoll),
	OP("release", fifo_prepare, call_release),
	OP("unload", prepare_unload, call_unload),
	/* misc_register() turns a failed minor allocation into -EBUSY. */
	OP("load", prepare_load, call_load, .errno2 = EBUSY),
	OP("load-bad-max_event", prepare_load, fifo_load_bad_max_event,
	   .want_errno = EINVAL),
	OP("load-bad-queue_bytes", prepare_load, fifo_load_bad_queue_bytes,
	   .want_errno = EINVAL),
	{ }
};

/* ---- watchdog: /dev/kitwdt ---- */

#define WDT_DEV		"/dev/kitwdt"

static int wdt_get(int f, unsigned long cmd)
{
	int val = -1;

	KIT_ASSERT_OK(ioctl(f, cmd, &val));
	return val;
}

static void wdt_set(int f, unsigned long cmd, int val)
{
	KIT_ASSERT_OK(ioctl(f, cmd, &val));
}

/* Stop it: a magic close. */
static void wdt_stop(int f)
{
	KIT_ASSERT_EQ(write(f, "V", 1), 1);
	close(f);
}

static void wdt_quiesce(void)
{
	if (!access(WDT_DEV, F_OK))
		wdt_stop(KIT_ASSERT_OK(open(WDT_DEV, O_RDWR)));
}

/*
 * The start state: running, timeout 60 s and pretimeout 10 s, its status
 * read (which clears "pinged"), nothing open.
 */
static void wdt_start(void)
{
	int f;

	release_all();
	load();
	f = KIT_ASSERT_OK(open(WDT_DEV, O_RDWR));
	wdt_set(f, WDIOC_SETTIMEOUT, 60);
	wdt_set(f, WDIOC_SETPRETIMEOUT, 10);
	wdt_get(f, WDIOC_GETSTATUS);
	close(f);	/* no 'V': it runs on */
}

/*
 * Does it run?  Opening it would start it, so with no file open the
 * module's references say: a running watchdog holds one (kitwdt_start()),
 * and nothing else does then.
 */
static bool wdt_running_closed(void)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt", drv->module);
	if (read_file(path, val, sizeof(val)))
		kit_failed(__FILE__, __LINE__, errno, "reading %s", path);
	return atoi(val) > 0;
}

/*
 * Through the op's file if it is open (one opener at a time), then stop.
 * Whether it ran comes first: the status, and opening, change nothing of
 * it but "pinged", which the open of a stopped watchdog sets.
 */
static void wdt_state(char *s, size_t size)
{
	int f = fd, status, timeout, pretimeout;
	bool running;

	fd = -1;
	release_all();
	if (f < 0) {
		running = wdt_running_closed();
		f = KIT_ASSERT_OK(open(WDT_DEV, O_RDWR));
	} else {
		running = wdt_get(f, WDIOC_GETTIMELEFT) > 0;
	}
	status = wdt_get(f, WDIOC_GETSTATUS);
	timeout = wdt_get(f, WDIOC_GETTIMEOUT);
	pretimeout = wdt_get(f, WDIOC_GETPRETIMEOUT);
	snprintf(s, size, "got '%s', %s, status %#x, timeout %d, pretimeout %d",
		 out, running ? "running" : "stopped", status, timeout,
		 pretimeout);
	wdt_stop(f);
}

static void wdt_prepare(void)
{
	wdt_start();
	fd = KIT_ASSERT_OK(open(WDT_DEV, O_RDWR | O_NONBLOCK));
}

static void wdt_prepare_uring(void)
{
	wdt_prepare();
	uring_setup();
}

static void wdt_prepare_pipe(void)
{
	wdt_prepare();
	KIT_ASSERT_OK(pipe2(pipefd, O_NONBLOCK));
}

static void wdt_prepare_epoll(void)
{
	wdt_prepare();
	epfd = KIT_ASSERT_OK(epoll_create1(0));
}

static long wdt_open_call(void)
{
	fd = open(WDT_DEV, O_RDWR | O_NONBLOCK);
	return fd < 0 ? -1 : 0;
}

/* The seconds left change as time goes: say only whether it runs. */
static long wdt_got(long r)
{
	if (r == sizeof(int))
		append(out, sizeof(out), "%s",
		       *(int *)buf > 0 ? "time left" : "0");
	return r;
}

static long wdt_read(void)
{
	return wdt_got(read(fd, buf, sizeof(int)));
}

static long wdt_readv(void)
{
	struct iovec iov[2] = { { buf, 2 }, { buf + 2, 2 } };

	return wdt_got(readv(fd, iov, 2));
}

static long wdt_nowait_read(void)
{
	struct iovec iov = { buf, sizeof(int) };

	return wdt_got(preadv2(fd, &iov, 1, -1, RWF_NOWAIT));
}

static long wdt_uring_read(void)
{
	return wdt_got(uring_rw(false, buf, sizeof(int)));
}

/* 600 bytes with a 'V' at the end: scanned in three chunks. */
static long wdt_write(void)
{
	memset(buf, 'x', 599);
	buf[599] = 'V';
	return write(fd, buf, 600);
}

/* Legacy: a call per segment, and the last one decides. */
static long wdt_writev(void)
{
	struct iovec iov[2] = { { "ab", 2 }, { "V", 1 } };

	return writev(fd, iov, 2);
}

/* Legacy's first segment alone: pinged (0x8000), no magic close. */
static bool wdt_writev_partial(long r, const char *state)
{
	return r == 2 && strstr(state, "running, status 0x8000,");
}

static long wdt_nowait_write(void)
{
	struct iovec iov = { "V", 1 };

	return pwritev2(fd, &iov, 1, -1, RWF_NOWAIT);
}

static long wdt_uring_write(void)
{
	return uring_rw(true, "V", 1);
}

static long wdt_getsupport(void)
{
	struct watchdog_info info;
	long r = ioctl(fd, WDIOC_GETSUPPORT, &info);

	if (!r)
		append(out, sizeof(out), "%s %#x", info.identity,
		       info.options);
	return r;
}

static long wdt_settimeout(void)
{
	int val = 100;

	return ioctl(fd, WDIOC_SETTIMEOUT, &val);
}

/* expiries is the driver's count: a value given at load is refused. */
static long wdt_load_bad_expiries(void)
{
	return call_load_bad("expiries=1");
}

static const struct fault_op wdt_ops[] = {
	OP("open", wdt_start, wdt_open_call),
	OP("read", wdt_prepare, wdt_read),
	OP("write", wdt_prepare, wdt_write),
	OP("readv", wdt_prepare, wdt_readv),
	OP("writev", wdt_prepare, wdt_writev, .also_ok = wdt_writev_partial),
	OP("preadv2-nowait", wdt_prepare, wdt_nowait_read),
	OP("pwritev2-nowait", wdt_prepare, wdt_nowait_write),
	OP("io_uring-read", wdt_prepare_uring, wdt_uring_read),
	OP("io_uring-write", wdt_prepare_uring, wdt_uring_write),
	OP("splice", wdt_prepare_pipe, call_splice),
	OP("ioctl-getsupport", wdt_prepare, wdt_getsupport),
	OP("ioctl-settimeout", wdt_prepare, wdt_settimeout),
	OP("poll", wdt_prepare, call_poll),
	OP("epoll", wdt_prepare_epoll, call_epoll),
	OP("release", wdt_prepare, call_release),
	OP("unload", prepare_unload, call_unload),
	/* misc_register() turns a failed minor allocation into -EBUSY. */
	OP("load", prepare_load, call_load, .errno2 = EBUSY),
	OP("load-bad-expiries", prepare_load, wdt_load_bad_expiries,
	   .want_errno = EINVAL),
	{ }
};

/* ---- debugfs-demo and procfs-demo: attribute files ---- */

static const char *attr_dir;	/* the driver's directory */
static bool attr_stats;		/* it has stats and trigger (debugfs) */

static int attr_open(const char *name, int flags)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", attr_dir, name);
	return KIT_ASSERT_OK(open(path, flags));
}

static void attr_put(const char *name, const char *val)
{
	int f = attr_open(name, O_WRONLY);

	KIT_ASSERT_EQ(write(f, val, strlen(val)), (long)strlen(val));
	close(f);
}

static void attr_get(const char *name, char *s, size_t size)
{
	int f = attr_open(name, O_RDONLY);
	ssize_t n = KIT_ASSERT_OK(read(f, buf, sizeof(buf)));

	close(f);
	append_bytes(s, size, buf, n);
}

/*
 * The start state: value 7, message "Hello..." with its first five bytes
 * "hello"; debugfs' counters from the reset on (reads 0, writes 2).
 */
static void attr_start(void)
{
	int f;

	release_all();
	load();
	if (attr_stats)
		attr_put("trigger", "reset");
	attr_put("value", "7");
	f = attr_open("message", O_WRONLY);
	KIT_ASSERT_EQ(write(f, "hello", 5), 5);
	close(f);
}

/*
 * stats first: reading the others counts.  A failed write counts as
 * rejected, by design: that counter is left out.
 */
static void attr_state(char *s, size_t size)
{
	char stats[256] = "", *cut;
	off_t pos = fd >= 0 ? lseek(fd, 0, SEEK_CUR) : -1;

	splice_got();
	release_all();
	snprintf(s, size, "got '%s', ", out);
	/* A call that failed must not have moved the op's file position. */
	if (pos >= 0)
		append(s, size, "pos %lld, ", (long long)pos);
	if (attr_stats) {
		attr_get("stats", stats, sizeof(stats));
		cut = strstr(stats, "\\nrejected");
		if (cut)
			*cut = '\0';
		append(s, size, "%s, ", stats);
	}
	append(s, size, "value ");
	attr_get("value", s, size);
	append(s, size, ", message ");
	attr_get("message", s, size);
}

static void attr_prepare_value(void)
{
	attr_start();
	fd = attr_open("value", O_RDWR);
}

static void attr_prepare_message(void)
{
	attr_start();
	fd = attr_open("message", O_RDWR);
}

static void attr_prepare_uring(void)
{
	attr_prepare_value();
	uring_setup();
}

static void attr_prepare_pipe(void)
{
	attr_prepare_value();
	KIT_ASSERT_OK(pipe2(pipefd, O_NONBLOCK));
}

static void attr_prepare_pipe_in(void)
{
	attr_prepare_pipe();
	KIT_ASSERT_EQ(write(pipefd[1], "99", 2), 2);
}

static void attr_prepare_trigger(void)
{
	attr_start();
	fd = attr_open("trigger", O_WRONLY);
}

static void attr_prepare_table(void)
{
	attr_start();
	fd = attr_open("table", O_RDONLY);
}

static long attr_open_call(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", attr_dir, name);
	fd = open(path, O_RDWR);
	return fd < 0 ? -1 : 0;
}

static long attr_open_value(void)
{
	return attr_open_call("value");
}

static long attr_open_message(void)
{
	return attr_open_call("message");
}

static long attr_open_table(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/table", attr_dir);
	fd = open(path, O_RDONLY);
	return fd < 0 ? -1 : 0;
}

static long attr_write_value(void)
{
	return write(fd, "123", 3);
}

/* "7\n", a byte per segment (legacy: a call per segment). */
static long attr_readv(void)
{
	struct iovec iov[3] = { { buf, 1 }, { buf + 1, 1 }, { buf + 2, 16 } };

	return got_iov(readv(fd, iov, 3), iov, 3);
}

/*
 * A copy that failed at the second segment: the first byte read, and the
 * file's position and debugfs' read count say one byte (the failed read is
 * not counted).
 */
static bool attr_readv_partial(long r, const char *state)
{
	return r == 1 && strstr(state, "got '[7]', pos 1, ") &&
	       (!attr_stats || strstr(state, "reads 1\\nwrites 2,"));
}

/* "ab" then "cd" at the start of message (legacy: a call per segment). */
static long attr_writev(void)
{
	struct iovec iov[2] = { { "ab", 2 }, { "cd", 2 } };

	return writev(fd, iov, 2);
}

static bool attr_writev_partial(long r, const char *state)
{
	return r == 2 && strstr(state, "message abllo from") &&
	       (!attr_stats || strstr(state, "writes 3,"));
}

static long attr_nowait_write(void)
{
	struct iovec iov = { "123", 3 };

	return pwritev2(fd, &iov, 1, -1, RWF_NOWAIT);
}

static long attr_uring_write(void)
{
	return uring_rw(true, "123", 3);
}

static long attr_splice_in(void)
{
	return splice(pipefd[0], NULL, fd, NULL, 2, 0);
}

static long attr_reset(void)
{
	return write(fd, "reset", 5);
}

static const struct fault_op debugfs_ops[] = {
	OP("open", attr_start, attr_open_value),
	OP("open-message", attr_start, attr_open_message),
	OP("read", attr_prepare_value, call_read),
	OP("read-message", attr_prepare_message, call_read),
	OP("write", attr_prepare_value, attr_write_value),
	OP("readv", attr_prepare_value, attr_readv,
	   .also_ok = attr_readv_partial),
	OP("writev", attr_prepare_message, attr_writev,
	   .also_ok = attr_writev_partial),
	OP("preadv2-nowait", attr_prepare_value, call_nowait_read),
	OP("pwritev2-nowait", attr_prepare_value, attr_nowait_write),
	OP("io_uring-read", attr_prepare_uring, call_uring_read),
	OP("io_uring-write", attr_prepare_uring, attr_uring_write),
	OP("splice", attr_prepare_pipe, call_splice),
	OP("splice-in", attr_prepare_pipe_in, attr_splice_in),
	OP("write-trigger", attr_prepare_trigger, attr_reset),
	OP("poll", attr_prepare_value, call_poll),
	OP("release", attr_prepare_value, call_release),
	OP("unload", prepare_unload, call_unload),
	OP("load", prepare_load, call_load),
	{ }
};

static const struct fault_op procfs_ops[] = {
	OP("open", attr_start, attr_open_value),
	OP("open-table", attr_start, attr_open_table),
	OP("read", attr_prepare_value, call_read),
	OP("read-message", attr_prepare_message, call_read),
	OP("read-table", attr_prepare_table, call_read),
	OP("write", attr_prepare_value, attr_write_value),
	OP("readv", attr_prepare_value, attr_readv,
	   .also_ok = attr_readv_partial),
	OP("writev", attr_prepare_message, attr_writev,
	   .also_ok = attr_writev_partial),
	OP("preadv2-nowait", attr_prepare_value, call_nowait_read),
	OP("io_uring-read", attr_prepare_uring, call_uring_read),
	OP("io_uring-write", attr_prepare_uring, attr_uring_write),
	OP("splice", attr_prepare_pipe, call_splice),
	OP("poll", attr_prepare_value, call_poll),
	OP("release", attr_prepare_value, call_release),
	OP("release-table", attr_prepare_table, call_release),
	OP("unload", prepare_unload, call_unload),
	OP("load", prepare_load, call_load),
	{ }
};

/* ---- skeleton: /dev/skel0, the USB Loopback gadget behind it ---- */

#define SKEL_DRV	"/sys/bus/usb/drivers/kitskel"
/* A wait for the echo gives up after this long (see tests/skeleton.c). */
#define ECHO_WAIT_MS	20000

static char skel_intf[64];	/* the interface it binds: 1-1:1.0 */

static const char *skel_node(void)
{
	static char path[64];
	glob_t g;

	if (glob("/dev/skel*", 0, NULL, &g))
		return NULL;
	snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
	globfree(&g);
	return path;
}

static bool skel_bound(void)
{
	char path[128];

	snprintf(path, sizeof(path), SKEL_DRV "/%s", skel_intf);
	return !access(path, F_OK);
}

static void skel_find_intf(void)
{
	glob_t g;

	if (skel_intf[0])
		return;
	if (glob(SKEL_DRV "/*:*", 0, NULL, &g))
		kit_fail("kitskel is bound to no interface");
	snprintf(skel_intf, sizeof(skel_intf), "%s",
		 strrchr(g.gl_pathv[0], '/') + 1);
	globfree(&g);
}

static void skel_bind_plain(void)
{
	if (!skel_bound())
		must_write(SKEL_DRV "/bind", skel_intf);
}

/*
 * Send a marker and read what comes back up to it: what was on its way,
 * appended to s (if not NULL), since the device echoes in order.
 */
static void skel_sync(int f, const char *marker, char *s, size_t size)
{
	struct pollfd p = { .fd = f, .events = POLLIN };
	size_t len = strlen(marker), have = 0;
	static char got[65536];
	ssize_t n;

	KIT_ASSERT_EQ(write(f, marker, len), (long)len);
	while (have < len || memcmp(got + have - len, marker, len)) {
		n = read(f, got + have, sizeof(got) - have);
		if (n > 0) {
			have += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN)
			kit_failed(__FILE__, __LINE__, errno, "reading skel");
		if (!KIT_ASSERT_OK(poll(&p, 1, ECHO_WAIT_MS)))
			kit_fail("no echo of '%s' after %d ms", marker,
				 ECHO_WAIT_MS);
	}
	if (s)
		append_bytes(s, size, got, have);
}

static int skel_open_plain(void)
{
	const char *n = skel_node();

	if (!n)
		kit_fail("no /dev/skel*");
	return KIT_ASSERT_OK(open(n, O_RDWR | O_NONBLOCK));
}

/* The start state: bound, nothing on the way, nothing open. */
static void skel_start(void)
{
	int f;

	release_all();
	load();
	skel_find_intf();
	skel_bind_plain();
	f = skel_open_plain();
	skel_sync(f, "sync", NULL, 0);
	close(f);
}

/*
 * Whether it is bound, and what comes back: what was on the way, and then
 * a message of ours, which a working device echoes.
 */
static void skel_state(char *s, size_t size)
{
	const char *n = skel_node();
	int f;

	splice_got();
	release_all();
	snprintf(s, size, "got '%s', %s, %s", out,
		 skel_bound() ? "bound" : "unbound", n ? n : "no node");
	if (!skel_bound() || !n)
		return;
	f = skel_open_plain();
	append(s, size, ", echo ");
	skel_sync(f, "ping", s, size);
	close(f);
}

static void skel_prepare(void)
{
	skel_start();
	fd = skel_open_plain();
}

/* "hello" on its way back, in the driver's buffer: a read takes it. */
static void skel_prepare_data(void)
{
	struct pollfd p = { .events = POLLIN };

	skel_prepare();
	KIT_ASSERT_EQ(write(fd, "hello", 5), 5);
	p.fd = fd;
	KIT_ASSERT_EQ(poll(&p, 1, ECHO_WAIT_MS), 1);
}

static void skel_prepare_data_uring(void)
{
	skel_prepare_data();
	uring_setup();
}

static void skel_prepare_uring(void)
{
	skel_prepare();
	uring_setup();
}

static void skel_prepare_pipe(void)
{
	skel_prepare_data();
	KIT_ASSERT_OK(pipe2(pipefd, O_NONBLOCK));
}

static void skel_prepare_epoll(void)
{
	skel_prepare();
	epfd = KIT_ASSERT_OK(epoll_create1(0));
}

static void skel_prepare_unbind(void)
{
	skel_start();
}

static void skel_prepare_bind(void)
{
	skel_start();
	must_write(SKEL_DRV "/unbind", skel_intf);
}

/*
 * A load whose probe failed: the module is in, the device unbound and
 * without a node.  The driver core does not fail a module's load for its
 * probe (the bind op is where the probe's error shows).
 */
static bool skel_load_unbound(long r, const char *state)
{
	return r == 0 && !strcmp(state, "got '', unbound, no node");
}

static long skel_open_call(void)
{
	fd = open(skel_node(), O_RDWR | O_NONBLOCK);
	return fd < 0 ? -1 : 0;
}

static long skel_write(void)
{
	return write(fd, "abc", 3);
}

/* "hello" across two segments (legacy: the first, a short count). */
static long skel_readv(void)
{
	struct iovec iov[2] = { { buf, 2 }, { buf + 2, 8 } };

	return got_iov(readv(fd, iov, 2), iov, 2);
}

/* Legacy: the second segment's read failed; the first one's bytes came. */
static bool skel_readv_partial(long r, const char *state)
{
	return r == 2 && strstr(state, "got '[he]'");
}

static long skel_writev(void)
{
	struct iovec iov[2] = { { "ab", 2 }, { "c", 1 } };

	return writev(fd, iov, 2);
}

/* Legacy: the second segment's write failed; the first one's went out. */
static bool skel_writev_partial(long r, const char *state)
{
	return r == 2 && strstr(state, "echo abping");
}

static long skel_nowait_write(void)
{
	struct iovec iov = { "abc", 3 };

	return pwritev2(fd, &iov, 1, -1, RWF_NOWAIT);
}

static long skel_uring_write(void)
{
	return uring_rw(true, "abc", 3);
}

static long skel_sysfs(const char *file)
{
	int f = open(file, O_WRONLY);
	long r;

	if (f < 0)
		return -1;
	r = write(f, skel_intf, strlen(skel_intf));
	close(f);
	return r;
}

static long skel_unbind(void)
{
	return skel_sysfs(SKEL_DRV "/unbind");
}

static long skel_bind(void)
{
	return skel_sysfs(SKEL_DRV "/bind");
}

static const struct fault_op skel_ops[] = {
	OP("open", skel_start, skel_open_call),
	OP("read", skel_prepare_data, call_read),
	OP("write", skel_prepare, skel_write),
	OP("readv", skel_prepare_data, skel_readv,
	   .also_ok = skel_readv_partial),
	OP("writev", skel_prepare, skel_writev,
	   .also_ok = skel_writev_partial),
	OP("preadv2-nowait", skel_prepare_data, call_nowait_read),
	OP("pwritev2-nowait", skel_prepare, skel_nowait_write),
	OP("io_uring-read", skel_prepare_data_uring, call_uring_read),
	OP("io_uring-write", skel_prepare_uring, skel_uring_write),
	OP("splice", skel_prepare_pipe, call_splice),
	/* poll() allocates nothing: skel_read_work() starts the read URB. */
	OP("poll", skel_prepare, call_poll),
	OP("epoll", skel_prepare_epoll, call_epoll),
	OP("release", skel_prepare, call_release),
	OP("unbind", skel_prepare_unbind, skel_unbind),
	OP("bind", skel_prepare_bind, skel_bind),
	OP("unload", prepare_unload, call_unload),
	/*
	 * The driver core's module_add_driver() says -EINVAL when it cannot
	 * allocate the module's drivers/ directory in sysfs.
	 */
	OP("load", prepare_load, call_load, .also_ok = skel_load_unbound,
	   .errno2 = EINVAL),
	{ }
};

/* ---- the drivers ---- */

static const struct fault_driver drivers[] = {
	{ .name = "misc-fifo", .module = "kitfifo", .path = FIFO_DEV,
	  .state = fifo_state, .ops = fifo_ops },
	{ .name = "watchdog", .module = "kitwdt", .path = WDT_DEV,
	  .state = wdt_state, .quiesce = wdt_quiesce, .ops = wdt_ops },
	{ .name = "debugfs-demo", .module = "kit_debugfs",
	  .path = "/sys/kernel/debug/kit-debugfs", .state = attr_state,
	  .ops = debugfs_ops },
	{ .name = "procfs-demo", .module = "kit_procfs",
	  .path = "/proc/kit-procfs", .state = attr_state,
	  .ops = procfs_ops },
	{ .name = "skeleton", .module = "kitskel", .path = SKEL_DRV,
	  .state = skel_state, .ops = skel_ops },
};

/*
 * After a failed sweep, what kit-run expects: the module loaded, the
 * skeleton bound.  (The sweeps that pass leave it so.)
 */
static void restore(void)
{
	int f;

	if (!loaded()) {
		f = open(kit_module_file(drv->module), O_RDONLY | O_CLOEXEC);
		if (f < 0 || syscall(SYS_finit_module, f, "", 0))
			kit_diag("cannot load %s again: %s", drv->module,
				 strerror(errno));
		close(f);
	}
	if (!strcmp(drv->name, "skeleton") && skel_intf[0] && !skel_bound())
		write_file(SKEL_DRV "/bind", skel_intf);
	/* A watchdog left running holds the module: stop it (magic close). */
	if (!strcmp(drv->name, "watchdog")) {
		f = open(WDT_DEV, O_RDWR);
		if (f >= 0) {
			if (write(f, "V", 1) != 1)
				kit_diag("cannot stop " WDT_DEV);
			close(f);
		}
	}
}

static const struct fault_op *current_op;

static void run_current(void)
{
	sweep(current_op);
}

int main(int argc, char **argv)
{
	const char *form = NULL, *only = NULL, *why;
	int i, list = 0, bad = 0, num = 0, counts[3] = { 0 };
	size_t j;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--list"))
			list = 1;
		else if (!strcmp(argv[i], "--form") && i + 1 < argc)
			form = argv[++i];
		else if (!strcmp(argv[i], "--run") && i + 1 < argc)
			only = argv[++i];
		else
			bad = 1;
	}
	for (j = 0; argc > 1 && j < ARRAY_SIZE(drivers); j++)
		if (!strcmp(argv[1], drivers[j].name))
			drv = &drivers[j];
	if (!drv || bad || (!form && !list)) {
		fprintf(stderr, "usage: kitfault DRIVER --form FORM %s\n",
			"[--run ENTRY,...] [--list]");
		fprintf(stderr, "DRIVER:");
		for (j = 0; j < ARRAY_SIZE(drivers); j++)
			fprintf(stderr, " %s", drivers[j].name);
		fprintf(stderr, "\n");
		return 2;
	}
	for (j = 0; drv->ops[j].name; j++) {
		if (list)
			printf("%s\n", drv->ops[j].name);
		num += kit_selected(only, drv->ops[j].name);
	}
	if (list)
		return 0;
	/* kit_module_file() looks for the module by driver and form. */
	kit_prog = drv->name;
	kit_form_name = form;
	attr_dir = !strcmp(drv->name, "debugfs-demo") ? drv->path :
		   "/proc/kit-procfs";
	attr_stats = !strcmp(drv->name, "debugfs-demo");

	points = mmap(NULL, 2 * sizeof(*points), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kit_share() || points == MAP_FAILED)
		return 2;
	printf("KTAP version 1\n1..%d\n", num);
	kit_diag("kitfault: %s, %s form", drv->name, form);
	why = fault_setup();
	if (!why && !strcmp(drv->name, "skeleton"))
		skel_find_intf();
	num = 0;
	for (j = 0; drv->ops[j].name; j++) {
		struct kit_test t = { drv->ops[j].name, run_current,
				      SWEEP_TIMEOUT };

		if (!kit_selected(only, t.name))
			continue;
		if (why) {
			printf("ok %d %s # SKIP %s\n", ++num, t.name, why);
			counts[2]++;
			continue;
		}
		current_op = &drv->ops[j];
		counts[kit_run(++num, &t)]++;
	}
	if (!why) {
		restore();
		/*
		 * The line the lane's log is read for.  An entry point whose
		 * sweep failed in its own set-up (not at a point) fails the
		 * run without a bad point: say so.
		 */
		kit_diag("%s:%s: %lu injection points reached over %d entry points, %s",
			 drv->name, form, points[POINTS_REACHED],
			 counts[0] + counts[1],
			 points[POINTS_BAD] ? "NOT every one ended cleanly" :
			 counts[1] ? "every one ended cleanly, but some entry points failed" :
			 "every one ended cleanly");
		if (points[POINTS_BAD])
			kit_diag("%s:%s: %lu of them did not end cleanly",
				 drv->name, form, points[POINTS_BAD]);
	}
	kit_diag("kitfault: %d passed, %d failed, %d skipped", counts[0],
		 counts[1], counts[2]);
	return counts[1] ? 1 : 0;
}
