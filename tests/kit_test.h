/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kit_test.h - a small userspace test harness for iterkit's drivers
 *
 * It gives the guarantees of the kernel's kselftest_harness.h in less code:
 * each test runs in its own forked child, so a crash ends only that test,
 * under a timeout; results come out as KTAP on stdout.
 *
 *	#include "kit_test.h"	(first: it sets _GNU_SOURCE)
 *
 *	KIT_TEST(write_then_read) { ... KIT_ASSERT_EQ(read(fd, b, 9), 5); }
 *	KIT_TEST_TIMEOUT(many_threads, 300) { ... }
 *
 *	int main(int argc, char **argv) { return kit_test_main(argc, argv); }
 *
 * Run as: PROG --form FORM [--run NAME,...] [--list], FORM being what is loaded:
 *	legacy		the driver's legacy/ form (.read/.write)
 *	converted	its converted/ form: .read_iter/.write_iter, and what
 *			the author added (FMODE_NOWAIT, IOCB_NOWAIT, .splice_read)
 *	wrapped		scripts/convert --wrap's output of legacy/: .read_iter
 *			running .read a segment at a time; it behaves as legacy
 *	native		scripts/convert --native's output of legacy/: the
 *			iterator path and nothing added
 * kit_form_iter() is true for converted and native (what the iterator path
 * does: one call per readv/writev, kernel_read()); kit_form_converted()
 * for converted only (what the author added); kit_form_legacy() for legacy
 * only (where wrapped differs: a seq_read that became seq_read_iter).
 * Exit status: 0 if no test failed, 1 if one did, 2 for bad usage.
 * A failed assertion ends its test at once, from any thread.  A test past
 * its timeout (kit_timeout()) is stopped, and says what it waits in:
 * "NAME: hangs: waits in read() on /dev/ttyS0 (stopped after 60 s)"; the
 * next one runs.
 */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#define KIT_MAX_TESTS		128
#define KIT_MAX_THREADS		64
/* Generous: the tests run under QEMU without KVM, which is slow. */
#define KIT_DEFAULT_TIMEOUT	60

/* How a test's child tells the parent what happened. */
enum { KIT_EXIT_PASS = 0, KIT_EXIT_FAIL = 1, KIT_EXIT_SKIP = 4 };

struct kit_test {
	const char *name;
	void (*fn)(void);
	unsigned int timeout;		/* seconds */
};

static struct kit_test kit_tests[KIT_MAX_TESTS];
static int kit_ntests;
static int kit_converted;		/* --form converted */
static int kit_iter;			/* --form converted or native */
static int kit_legacy;			/* --form legacy */
static const char *kit_form_name = "";	/* --form's argument */
static const char *kit_prog = "";	/* the program's name: the driver's */
static char *kit_skip_reason;		/* shared memory: set by KIT_SKIP() */
static char *kit_waits_for;		/* shared memory: kit_waiting_for() */
static unsigned int kit_timeout_now;	/* the running test's, in seconds */

static inline void kit_register(const char *name, void (*fn)(void),
				unsigned int timeout)
{
	if (kit_ntests == KIT_MAX_TESTS)
		abort();	/* raise KIT_MAX_TESTS */
	kit_tests[kit_ntests++] = (struct kit_test){ name, fn, timeout };
}

/* Constructors run before main(), in the order of the source. */
#define KIT_TEST_TIMEOUT(name, secs)					\
	static void kit_test_##name(void);				\
	static void __attribute__((constructor)) kit_reg_##name(void)	\
	{								\
		kit_register(#name, kit_test_##name, secs);		\
	}								\
	static void kit_test_##name(void)

#define KIT_TEST(name) KIT_TEST_TIMEOUT(name, KIT_DEFAULT_TIMEOUT)

/* Which form of the driver is loaded (see the top of this file). */
#define kit_form_converted() (kit_converted)
#define kit_form_iter() (kit_iter)
#define kit_form_legacy() (kit_legacy)

/* Whether the running kernel is major.minor or newer (from uname). */
static inline int kit_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

/* A diagnostic line ("# ..."), flushed: the child may die right after. */
#define kit_diag(fmt, ...)						\
	do {								\
		printf("# " fmt "\n", ##__VA_ARGS__);			\
		fflush(stdout);						\
	} while (0)

/* Report a failure at file:line, with errno e if nonzero; end the test. */
static inline noreturn void
kit_failed(const char *file, int line, int e, const char *fmt, ...)
{
	va_list ap;

	printf("# %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (e)
		printf(" (errno %d: %s)", e, strerror(e));
	printf("\n");
	fflush(stdout);
	_exit(KIT_EXIT_FAIL);
}

#define kit_fail(fmt, ...) \
	kit_failed(__FILE__, __LINE__, 0, fmt, ##__VA_ARGS__)

/*
 * The failure message of KIT_ASSERT shows errno if set, and KIT_ASSERT_EQ if
 * a side is -1 (a failed call): they may read errno, so they don't clear it.
 */
#define KIT_ASSERT(cond)						\
	do {								\
		if (!(cond))						\
			kit_failed(__FILE__, __LINE__, errno,		\
				   "KIT_ASSERT(%s) failed", #cond);	\
	} while (0)

#define KIT_ASSERT_EQ(a, b)						\
	do {								\
		long long kit_a = (a), kit_b = (b);			\
									\
		if (kit_a != kit_b)					\
			kit_failed(__FILE__, __LINE__,			\
				   kit_a == -1 || kit_b == -1 ? errno : 0, \
				   "KIT_ASSERT_EQ(%s, %s): %lld != %lld", \
				   #a, #b, kit_a, kit_b);		\
	} while (0)

/*
 * The call must fail: return -1 and set errno to err. This one and
 * KIT_ASSERT_OK clear errno first: any errno they show was set by expr.
 */
#define KIT_ASSERT_ERRNO(expr, err)					\
	do {								\
		long long kit_r;					\
		errno = 0;						\
		kit_r = (expr);						\
		if (kit_r != -1 || errno != (err))			\
			kit_failed(__FILE__, __LINE__, errno,		\
				   "%s: expected -1 and %s, got %lld",	\
				   #expr, #err, kit_r);			\
	} while (0)

/* The call must succeed (>= 0); gives its value: fd = KIT_ASSERT_OK(open()) */
#define KIT_ASSERT_OK(expr)						\
	({								\
		long long kit_r;					\
		errno = 0;						\
		kit_r = (expr);						\
		if (kit_r < 0)						\
			kit_failed(__FILE__, __LINE__, errno,		\
				   "%s failed: %lld", #expr, kit_r);	\
		kit_r;							\
	})

/* Stop the test and count it as skipped, never as passed. */
#define KIT_SKIP(fmt, ...)						\
	do {								\
		snprintf(kit_skip_reason, 256, fmt, ##__VA_ARGS__);	\
		_exit(KIT_EXIT_SKIP);					\
	} while (0)

/* Threads: n threads run fn((void *)(long)index); join waits for them. */
struct kit_threads {
	int n;
	pthread_t id[KIT_MAX_THREADS];
};

static inline void kit_threads_start(struct kit_threads *t, int n,
				     void *(*fn)(void *))
{
	int err;

	if (n > KIT_MAX_THREADS)
		kit_fail("%d threads: at most %d", n, KIT_MAX_THREADS);
	for (t->n = 0; t->n < n; t->n++) {
		err = pthread_create(&t->id[t->n], NULL, fn, (void *)(long)t->n);
		if (err)
			kit_fail("pthread_create: %s", strerror(err));
	}
}

static inline void kit_threads_join(struct kit_threads *t)
{
	while (t->n > 0)
		pthread_join(t->id[--t->n], NULL);
}

/*
 * The contents of /proc/TID/NAME, or "" if it can't be read: TID is a
 * thread of this process, or of a test's child (kit_waits_in()).
 */
static inline void kit_read_task_file(pid_t tid, const char *name, char *out,
				      int size)
{
	char path[64];
	int fd, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", tid, name);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, out, size - 1);
		close(fd);
	}
	out[n > 0 ? n : 0] = '\0';
}

/*
 * The system calls that the C library's poll() and epoll_wait() make, for
 * kit_sleeps_in() and kit_wait_blocked(): arm64 has neither poll nor
 * epoll_wait, and glibc calls ppoll and epoll_pwait there.
 */
#ifdef SYS_poll
#define KIT_SYS_POLL		SYS_poll
#define KIT_SYS_EPOLL_WAIT	SYS_epoll_wait
#else
#define KIT_SYS_POLL		SYS_ppoll
#define KIT_SYS_EPOLL_WAIT	SYS_epoll_pwait
#endif

/*
 * The system call that thread tid sleeps in, or -1: its state is S (a wait
 * that a signal ends) or D (mutex_lock()), and its syscall file starts with
 * the call's number (it says "running" while the thread is on a CPU).
 * *state gets the state, *arg0 the call's first argument.
 */
static inline long kit_asleep_in(pid_t tid, char *state, unsigned long *arg0)
{
	char stat[512], call[256], *s;
	long nr;

	kit_read_task_file(tid, "stat", stat, sizeof(stat));
	kit_read_task_file(tid, "syscall", call, sizeof(call));
	s = strrchr(stat, ')');
	if (!s || !s[1] || (s[2] != 'S' && s[2] != 'D') ||
	    sscanf(call, "%ld %lx", &nr, arg0) != 2 || nr < 0)
		return -1;
	*state = s[2];
	return nr;
}

/*
 * Whether thread tid sleeps in system call nr: gives its state, or 0.
 * kit_wait_blocked() waits until it does: for a test that a call waits,
 * whose other side acts only once it does.
 */
static inline char kit_sleeps_in(pid_t tid, long nr)
{
	unsigned long arg0;
	char state = 0;

	return kit_asleep_in(tid, &state, &arg0) == nr ? state : 0;
}

/* Half the test's timeout at most: its message, not the timeout's, is seen. */
static inline void kit_wait_blocked(pid_t tid, long nr)
{
	time_t end = time(NULL) + kit_timeout_now / 2;

	while (!kit_sleeps_in(tid, nr)) {
		if (time(NULL) > end)
			kit_fail("thread %d did not block in system call %ld",
				 tid, nr);
		usleep(10000);
	}
}

/*
 * What the test waits for from here on, NULL for nothing said: should it
 * wait for ever, its report says so ("hangs: waits for WHAT, in read()").
 */
static inline void kit_waiting_for(const char *what)
{
	snprintf(kit_waits_for, 256, "%s", what ? what : "");
}

/*
 * A call that must not wait (RWF_NOWAIT, O_NONBLOCK, io_uring's first,
 * non-blocking try: IOCB_NOWAIT in the driver): KIT_NO_WAIT(nr, call)
 * makes the call, system call nr, and gives its value and errno.  Meanwhile
 * a thread watches the caller: found asleep in nr, time after time, the
 * test fails at once and says so, where the call would otherwise wait for
 * the test's timeout, and the report would not say why.
 *
 *	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
 *			 preadv2(fd, &iov, 1, -1, RWF_NOWAIT)), EAGAIN);
 */
#define KIT_NO_WAIT_SEEN	5	/* asleep at so many looks in a row */

static struct {
	pid_t tid;
	long nr;
	const char *call, *file;
	int line, done;
	pthread_t id;
} kit_no_wait;

static inline void *kit_no_wait_main(void *unused)
{
	char wchan[128];
	int seen = 0;

	while (!__atomic_load_n(&kit_no_wait.done, __ATOMIC_SEQ_CST)) {
		seen = kit_sleeps_in(kit_no_wait.tid, kit_no_wait.nr) ?
		       seen + 1 : 0;
		if (seen == KIT_NO_WAIT_SEEN) {
			kit_read_task_file(kit_no_wait.tid, "wchan", wchan,
					   sizeof(wchan));
			kit_failed(kit_no_wait.file, kit_no_wait.line, 0,
				   "%s waits (asleep in %s) where it must not: %s",
				   kit_no_wait.call,
				   wchan[0] && strcmp(wchan, "0") ?
				   wchan : "the kernel",
				   "under O_NONBLOCK, RWF_NOWAIT or io_uring's first try (IOCB_NOWAIT) a driver returns -EAGAIN instead");
		}
		usleep(10000);
	}
	return unused;
}

static inline void kit_no_wait_begin(long nr, const char *call,
				     const char *file, int line)
{
	int err;

	kit_no_wait.tid = gettid();
	kit_no_wait.nr = nr;
	kit_no_wait.call = call;
	kit_no_wait.file = file;
	kit_no_wait.line = line;
	__atomic_store_n(&kit_no_wait.done, 0, __ATOMIC_SEQ_CST);
	err = pthread_create(&kit_no_wait.id, NULL, kit_no_wait_main, NULL);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
}

static inline void kit_no_wait_end(void)
{
	int e = errno;

	__atomic_store_n(&kit_no_wait.done, 1, __ATOMIC_SEQ_CST);
	pthread_join(kit_no_wait.id, NULL);
	errno = e;
}

#define KIT_NO_WAIT(nr, call)						\
	({								\
		long long kit_nw;					\
		kit_no_wait_begin(nr, #call, __FILE__, __LINE__);	\
		kit_nw = (call);					\
		kit_no_wait_end();					\
		kit_nw;							\
	})

/*
 * n bytes that end where a PROT_NONE page begins: an access past them, or
 * to kit_bad_ptr(), faults, and a system call given them fails with EFAULT.
 */
static inline char *kit_edge_buf(size_t n)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t len = (n + page - 1) / page * page + page;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + len - page, page, PROT_NONE))
		kit_fail("mmap: %s", strerror(errno));
	return p + len - page - n;
}

#define kit_bad_ptr() ((void *)kit_edge_buf(0))

/*
 * A page that holds up whoever touches it first, a system call's copy to or
 * from it included, until kit_stall_release(): userfaultfd.  For a test
 * that needs a driver to be in the middle of a copy, holding whatever it
 * holds while it copies (a mutex, say).  kit_stall_init() skips the test
 * where userfaultfd is missing or forbidden.
 */
struct kit_stall {
	int uffd;
	char *page;
	size_t size;
};

static inline void kit_stall_init(struct kit_stall *st)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	st->size = sysconf(_SC_PAGESIZE);
	st->uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (st->uffd < 0)
		KIT_SKIP("userfaultfd: %s", strerror(errno));
	st->page = mmap(NULL, st->size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->page == MAP_FAILED)
		kit_fail("mmap: %s", strerror(errno));
	reg.range = (struct uffdio_range){ (unsigned long)st->page, st->size };
	if (ioctl(st->uffd, UFFDIO_API, &api) ||
	    ioctl(st->uffd, UFFDIO_REGISTER, &reg))
		kit_fail("userfaultfd: %s", strerror(errno));
}

/* Wait until something touches the page: it sleeps in that fault now. */
static inline void kit_stall_wait(struct kit_stall *st)
{
	struct uffd_msg msg;

	kit_waiting_for("a copy to the stalled page");
	if (read(st->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		kit_fail("userfaultfd: no page fault (%s)", strerror(errno));
	kit_waiting_for(NULL);
}

/* Let it go on: the page appears, zero-filled, and the copy completes. */
static inline void kit_stall_release(struct kit_stall *st)
{
	char *zeros = calloc(1, st->size);
	struct uffdio_copy copy = {
		.dst = (unsigned long)st->page,
		.src = (unsigned long)zeros,
		.len = st->size,
	};

	if (!zeros || ioctl(st->uffd, UFFDIO_COPY, &copy))
		kit_fail("UFFDIO_COPY: %s", strerror(errno));
	free(zeros);
}

/* The value of /sys/module/MOD/parameters/PARAM; the test fails without. */
static inline long long kit_module_param(const char *mod, const char *param)
{
	char path[256];
	long long val;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &val) != 1)
		kit_fail("cannot read a number from %s", path);
	fclose(f);
	return val;
}

/* The path rel, relative to the directory of this test program. */
static inline const char *kit_test_path(const char *rel)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n < 0)
		kit_fail("readlink /proc/self/exe: %s", strerror(errno));
	path[n] = '\0';
	slash = strrchr(path, '/');
	snprintf(slash + 1, sizeof(path) - (slash + 1 - path), "%s", rel);
	return path;
}

/*
 * The file of module MOD, for a test that loads it again: MOD.ko in
 * $KIT_MODULE_DIR, which whoever loaded the module sets (kit-run,
 * scripts/vm --load, a generated driver's tests/run); else where the
 * guest keeps the form under test, /kit/DRIVER/FORM/MOD.ko beside
 * /kit/tests/DRIVER (an insmod by hand in `make vm`).
 */
static inline const char *kit_module_file(const char *mod)
{
	static char path[4096];
	const char *dir = getenv("KIT_MODULE_DIR");

	if (dir) {
		snprintf(path, sizeof(path), "%s/%s.ko", dir, mod);
		return path;
	}
	snprintf(path, sizeof(path), "../%s/%s/%s.ko", kit_prog,
		 kit_form_name, mod);
	return kit_test_path(path);
}

/*
 * What a test stopped for time waits in, to say so: the system calls that
 * the common waits sleep in, and whether their first argument is a file
 * descriptor.  Any other call is shown by its number.
 */
#define KIT_CALL(name, on_fd) { SYS_##name, #name, on_fd }
static const struct {
	long nr;
	const char *name;
	int on_fd;
} kit_calls[] = {
	KIT_CALL(read, 1), KIT_CALL(write, 1), KIT_CALL(readv, 1),
	KIT_CALL(writev, 1), KIT_CALL(pread64, 1), KIT_CALL(pwrite64, 1),
	KIT_CALL(preadv2, 1), KIT_CALL(pwritev2, 1), KIT_CALL(ioctl, 1),
	KIT_CALL(close, 1), KIT_CALL(io_uring_enter, 1), KIT_CALL(openat, 0),
	KIT_CALL(splice, 0), KIT_CALL(sendfile, 0), KIT_CALL(ppoll, 0),
	KIT_CALL(epoll_pwait, 0), KIT_CALL(clock_nanosleep, 0),
	KIT_CALL(nanosleep, 0), KIT_CALL(wait4, 0), KIT_CALL(futex, 0),
#ifdef SYS_poll			/* not on arm64 */
	KIT_CALL(poll, 0), KIT_CALL(epoll_wait, 0),
#endif
	{ -1, NULL, 0 }
};

/*
 * Where thread tid waits, into out: "read() on /dev/ttyS0" (the file
 * from /proc/TID/fd), "" if it does not sleep in a system call.  Gives the
 * call's number, or -1.
 */
static inline long kit_waits_in(pid_t tid, char *out, int size)
{
	char state, path[64], file[256] = "";
	unsigned long arg0;
	long nr = kit_asleep_in(tid, &state, &arg0);
	int i;
	ssize_t n;

	out[0] = '\0';
	if (nr < 0)
		return -1;
	for (i = 0; kit_calls[i].name && kit_calls[i].nr != nr; i++)
		;
	if (kit_calls[i].name && kit_calls[i].on_fd) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%lu", tid, arg0);
		n = readlink(path, file, sizeof(file) - 1);
		file[n > 0 ? n : 0] = '\0';
	}
	if (kit_calls[i].name)
		snprintf(out, size, "%s()%s%s", kit_calls[i].name,
			 file[0] ? " on " : "", file);
	else
		snprintf(out, size, "system call %ld", nr);
	return nr;
}

/*
 * Where the threads of process pid wait, into out: each thread's
 * kit_waits_in(), once ("read() on pipe:[4711], ppoll()"); a thread in
 * futex() (a lock, pthread_join()) only when no other waits: it waits for
 * one of them.  "" if none sleeps in a system call.
 */
static inline void kit_where_waits(pid_t pid, char *out, int size)
{
	char path[64], one[320], futex[320] = "";
	struct dirent *d;
	int len = 0;
	DIR *dir;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (kit_waits_in(atoi(d->d_name), one, sizeof(one)) ==
		    SYS_futex)
			snprintf(futex, sizeof(futex), "%s", one);
		else if (one[0] && !strstr(out, one) && len < size)
			len += snprintf(out + len, size - len, "%s%s",
					len ? ", " : "", one);
	}
	if (dir)
		closedir(dir);
	if (!out[0])
		snprintf(out, size, "%s", futex);
}

/*
 * A test's timeout: its own, or for a test that declares none, $KIT_TIMEOUT
 * seconds if set, else KIT_DEFAULT_TIMEOUT.  Whoever knows how long the
 * tests take sets it lower (a grader: a test that hangs then costs seconds).
 */
static inline unsigned int kit_timeout(const struct kit_test *t)
{
	const char *env = getenv("KIT_TIMEOUT");
	unsigned int secs = env ? strtoul(env, NULL, 10) : 0;

	return t->timeout == KIT_DEFAULT_TIMEOUT && secs ? secs : t->timeout;
}

static volatile sig_atomic_t kit_alarm;

static inline void kit_on_alarm(int sig)
{
	kit_alarm = sig;
}

/*
 * What a test's child tells kit_run(), in memory they share: why it
 * skipped, and what it waits for.  Before the first kit_run(): 0, or -1.
 */
static inline int kit_share(void)
{
	kit_skip_reason = mmap(NULL, 512, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kit_skip_reason == MAP_FAILED)
		return -1;
	kit_waits_for = kit_skip_reason + 256;
	return 0;
}

/* Run one test in its own child; print its result; 0 pass, 1 fail, 2 skip */
static inline int kit_run(int num, const struct kit_test *t)
{
	struct sigaction sa = { .sa_handler = kit_on_alarm };	/* no restart */
	int status = KIT_EXIT_FAIL << 8, ret = 1, killed = 0;
	unsigned int timeout = kit_timeout(t);
	char waits[512] = "";
	pid_t pid;

	kit_skip_reason[0] = '\0';
	kit_waits_for[0] = '\0';
	fflush(stdout);			/* or the child prints it again */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);		/* a timeout kills what the test forks */
		signal(SIGALRM, SIG_DFL);
		kit_timeout_now = timeout;
		t->fn();
		fflush(stdout);
		_exit(KIT_EXIT_PASS);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		kit_alarm = 0;
		sigaction(SIGALRM, &sa, NULL);
		alarm(timeout);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
			if (kit_alarm && !killed++) {
				kit_where_waits(pid, waits, sizeof(waits));
				kill(-pid, SIGKILL);
			}
		}
		alarm(0);
		kill(-pid, SIGKILL);	/* anything the test left behind */
	}

	if (pid < 0)
		kit_diag("%s: fork: %s", t->name, strerror(errno));
	else if (killed && waits[0])
		kit_diag("%s: hangs: waits %s%s%sin %s (stopped after %u s)",
			 t->name, kit_waits_for[0] ? "for " : "", kit_waits_for,
			 kit_waits_for[0] ? ", " : "", waits, timeout);
	else if (killed)
		kit_diag("%s: timed out after %u s", t->name, timeout);
	else if (WIFSIGNALED(status))
		kit_diag("%s: killed by signal %d (%s)", t->name,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) == KIT_EXIT_PASS)
		ret = 0;
	else if (WEXITSTATUS(status) == KIT_EXIT_SKIP)
		ret = 2;
	else if (WEXITSTATUS(status) != KIT_EXIT_FAIL)
		kit_diag("%s: exit status %d", t->name, WEXITSTATUS(status));

	if (ret == 2)
		printf("ok %d %s # SKIP %s\n", num, t->name, kit_skip_reason);
	else
		printf("%sok %d %s\n", ret ? "not " : "", num, t->name);
	return ret;
}

/* Is name in list, a comma-separated list of names (NULL: all)? */
static inline int kit_selected(const char *list, const char *name)
{
	size_t len = strlen(name);

	if (!list)
		return 1;
	for (;;) {
		if (!strncmp(list, name, len) &&
		    (list[len] == ',' || !list[len]))
			return 1;
		list = strchr(list, ',');
		if (!list)
			return 0;
		list++;
	}
}

static inline int kit_test_main(int argc, char **argv)
{
	const char *prog = basename(argv[0]), *form = "", *only = NULL;
	int i, list = 0, bad = 0, num = 0, counts[3] = { 0 };

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list"))
			list = 1;
		else if (!strcmp(argv[i], "--form") && i + 1 < argc)
			form = argv[++i];
		else if (!strcmp(argv[i], "--run") && i + 1 < argc)
			only = argv[++i];
		else
			bad = 1;
	}
	for (i = 0; i < kit_ntests; i++) {
		if (list)
			printf("%s\n", kit_tests[i].name);
		num += kit_selected(only, kit_tests[i].name);
	}
	kit_converted = !strcmp(form, "converted");
	kit_iter = kit_converted || !strcmp(form, "native");
	kit_legacy = !strcmp(form, "legacy");
	kit_form_name = form;
	kit_prog = prog;
	if (list)
		return bad ? 2 : 0;
	if (bad || !num || (!kit_iter && !kit_legacy &&
			    strcmp(form, "wrapped"))) {
		fprintf(stderr, "usage: %s --form FORM [--run NAME,...] [--list]\n"
			"FORM: legacy, converted, wrapped or native\n", prog);
		return 2;
	}

	if (kit_share())
		return 2;
	printf("KTAP version 1\n1..%d\n", num);
	kit_diag("%s: %s form", prog, form);
	num = 0;
	for (i = 0; i < kit_ntests; i++)
		if (kit_selected(only, kit_tests[i].name))
			counts[kit_run(++num, &kit_tests[i])]++;
	kit_diag("%s: %d passed, %d failed, %d skipped",
		 prog, counts[0], counts[1], counts[2]);
	return counts[1] ? 1 : 0;
}

#endif /* KIT_TEST_H */
