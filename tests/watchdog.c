// SPDX-License-Identifier: GPL-2.0
/*
 * watchdog - tests for /dev/kitwdt (watchdog/), both forms
 *
 * Run by kit-run as `watchdog --form legacy|converted`, with the module
 * just loaded with its default parameters (timeout=30, nowayout=0,
 * action=log).  Each test leaves the watchdog stopped (a magic close, or
 * the expiry): a running watchdog holds the module, so rmmod would fail;
 * the tests that need other parameters reload the module, and load it back
 * with its defaults whatever happens, so that kit-run's rmmod works.
 * The module comes from $KIT_MODULE_DIR, which kit-run sets.
 * In the guest, call it by its path (/kit/tests/watchdog): busybox's shell
 * runs its own `watchdog` applet in preference to one on PATH.
 *
 * An expiry is seen from userspace through the expiries parameter,
 * WDIOF_CARDRESET and poll's EPOLLPRI; whether the watchdog runs, through
 * WDIOC_GETTIMELEFT (0 when stopped).  action=panic and action=restart end
 * the guest: tests/host/watchdog runs those, each in a VM of its own.
 *
 * Timing: the kernel timer and these sleeps run on the same (guest) clock;
 * the margins are hundreds of milliseconds, for QEMU without KVM.
 */
#include "kit_test.h"

#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include <linux/userfaultfd.h>
#include <linux/watchdog.h>
#include <liburing.h>

#define DEV		"/dev/kitwdt"
#define MOD		"kitwdt"
#define MAX_TIMEOUT	3600
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define ALL_OPTIONS	(WDIOF_SETTIMEOUT | WDIOF_MAGICCLOSE | \
			 WDIOF_PRETIMEOUT | WDIOF_KEEPALIVEPING | \
			 WDIOF_CARDRESET)

/* ---- helpers */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(long long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int wdt_open(void)
{
	return KIT_ASSERT_OK(open(DEV, O_RDWR | O_CLOEXEC));
}

/* An ioctl that reads an int: its value. */
static int wdt_get(int fd, unsigned long cmd)
{
	int val = -12345;

	KIT_ASSERT_OK(ioctl(fd, cmd, &val));
	return val;
}

/* An ioctl that takes an int: the value the driver wrote back. */
static int wdt_set(int fd, unsigned long cmd, int val)
{
	KIT_ASSERT_OK(ioctl(fd, cmd, &val));
	return val;
}

static void wdt_timeout(int fd, int secs)
{
	KIT_ASSERT_EQ(wdt_set(fd, WDIOC_SETTIMEOUT, secs), secs);
}

/* The seconds left, through read(). */
static int wdt_read(int fd)
{
	int left = -12345;

	KIT_ASSERT_EQ(read(fd, &left, sizeof(left)), sizeof(left));
	return left;
}

static int wdt_armed(int fd)
{
	return !!(wdt_get(fd, WDIOC_GETSTATUS) & WDIOF_MAGICCLOSE);
}

/* Write a 'V' and close: the watchdog stops. */
static void wdt_magic_close(int fd)
{
	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	KIT_ASSERT_OK(close(fd));
}

/* Leave the watchdog stopped, with a timeout long enough not to matter. */
static void wdt_park(void)
{
	int fd = wdt_open();

	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

static long long expiries(void)
{
	return kit_module_param(MOD, "expiries");
}

/* Wait up to ms for the expiry count to reach n; 1 if it did. */
static int wait_expiries(long long n, long long ms)
{
	long long end = now_ms() + ms;

	while (expiries() < n && now_ms() < end)
		sleep_ms(50);
	return expiries() >= n;
}

/* A parameter as text, without its newline. */
static void param_str(const char *param, char *buf, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", MOD,
		 param);
	f = fopen(path, "r");
	if (!f || !fgets(buf, size, f))
		kit_fail("cannot read %s", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* ---- loading the module with other parameters */

static int mod_unload(void)
{
	return syscall(SYS_delete_module, MOD, O_NONBLOCK);
}

static int mod_load(const char *params)
{
	const char *ko = kit_module_file(MOD);
	int fd, ret, e;

	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		kit_fail("%s: %s", ko, strerror(errno));
	ret = syscall(SYS_finit_module, fd, params, 0);
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

/* Unload, waiting up to ms for a running watchdog to fire and let go. */
static int mod_unload_wait(long long ms)
{
	long long end = now_ms() + ms;
	int ret;

	while ((ret = mod_unload()) && errno == EWOULDBLOCK && now_ms() < end)
		sleep_ms(100);
	return ret;
}

/* Load the module back with its defaults, as kit-run loaded it. */
static void mod_restore(void)
{
	/* A watchdog left running holds the module until it fires. */
	if (mod_unload_wait(40000) && errno != ENOENT)
		kit_fail("cannot unload the module: %s", strerror(errno));
	KIT_ASSERT_OK(mod_load(""));
}

/*
 * Reload the module with params (none: fn loads it itself), run fn in a
 * child, then load the module back with its defaults, even if fn failed.
 */
static void with_module(const char *params, void (*fn)(void))
{
	int status = -1;
	pid_t pid;

	KIT_ASSERT_OK(mod_unload());
	if (params && mod_load(params)) {
		kit_diag("loading with '%s': %s", params, strerror(errno));
		mod_restore();
		kit_fail("cannot load the module with '%s'", params);
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	mod_restore();
	KIT_ASSERT(pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status));
}

/* ---- the ioctl API */

/* First, while the module is fresh from kit-run's load. */
KIT_TEST(defaults)
{
	char action[32];
	int fd = wdt_open();

	KIT_ASSERT_EQ(kit_module_param(MOD, "timeout"), 30);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 30);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 0);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETBOOTSTATUS), 0);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & WDIOF_CARDRESET, 0);
	KIT_ASSERT_EQ(expiries(), 0);
	param_str("action", action, sizeof(action));
	KIT_ASSERT(!strcmp(action, "log"));
	param_str("nowayout", action, sizeof(action));
	KIT_ASSERT(!strcmp(action, "N"));
	/* Opening started it: the seconds left count down from 30. */
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 29);
	KIT_ASSERT(wdt_read(fd) >= 29);
	wdt_magic_close(fd);
}

KIT_TEST(getsupport)
{
	struct watchdog_info info;
	int fd = wdt_open();

	memset(&info, 0xa5, sizeof(info));
	KIT_ASSERT_OK(ioctl(fd, WDIOC_GETSUPPORT, &info));
	KIT_ASSERT_EQ(info.options, ALL_OPTIONS);
	KIT_ASSERT_EQ(info.firmware_version, 0);
	KIT_ASSERT(!strcmp((char *)info.identity, "kitwdt"));
	wdt_magic_close(fd);
}

KIT_TEST(settimeout_bounds)
{
	static const int bad[] = { 0, -1, MAX_TIMEOUT + 1, INT32_MAX,
				   INT32_MIN };
	int fd = wdt_open(), val;
	unsigned int i;

	wdt_timeout(fd, 17);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		val = bad[i];
		KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETTIMEOUT, &val), EINVAL);
		KIT_ASSERT_EQ(val, bad[i]);	/* not written back */
		KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 17);
	}
	wdt_timeout(fd, 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 1);
	wdt_timeout(fd, MAX_TIMEOUT);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), MAX_TIMEOUT);
	/* It pings: the new timeout counts from now. */
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= MAX_TIMEOUT - 1);
	wdt_timeout(fd, 5);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 4);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) <= 5);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(pretimeout_bounds)
{
	int fd = wdt_open();

	wdt_timeout(fd, 10);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ -1 }), EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 10 }), EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 11 }), EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ INT32_MIN }),
			 EINVAL);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 9 }));
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 9);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 0 }));
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 0);
	/* A shorter timeout drops a pretimeout that no longer fits. */
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 6 }));
	wdt_timeout(fd, 7);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 6);
	wdt_timeout(fd, 6);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 0);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(setoptions)
{
	int fd = wdt_open();

	wdt_timeout(fd, 20);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETOPTIONS, &(int){ WDIOS_DISABLECARD }));
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 0);
	KIT_ASSERT_EQ(wdt_read(fd), 0);
	/* Pings don't start a stopped watchdog. */
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETOPTIONS, &(int){ WDIOS_ENABLECARD }));
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 19);
	/* Both: stop, then start again. */
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETOPTIONS,
			    &(int){ WDIOS_DISABLECARD | WDIOS_ENABLECARD }));
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 19);
	/* Nothing, or anything else, is refused and changes nothing. */
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS, &(int){ 0 }), EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS, &(int){ WDIOS_TEMPPANIC }),
			 EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS,
			       &(int){ WDIOS_DISABLECARD | 0x100 }), EINVAL);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS, &(int){ -1 }), EINVAL);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 19);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(unknown_ioctls)
{
	int fd = wdt_open(), val = 0;

	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETTEMP, &val), ENOTTY);
	KIT_ASSERT_ERRNO(ioctl(fd, _IOR(WATCHDOG_IOCTL_BASE, 11, int), &val),
			 ENOTTY);
	/* SETTIMEOUT's number, with the wrong direction */
	KIT_ASSERT_ERRNO(ioctl(fd, _IOW(WATCHDOG_IOCTL_BASE, 6, int), &val),
			 ENOTTY);
	KIT_ASSERT_ERRNO(ioctl(fd, _IO('X', 0), 0), ENOTTY);
	KIT_ASSERT_ERRNO(ioctl(fd, FIONREAD, &val), ENOTTY);
	wdt_magic_close(fd);
}

KIT_TEST(getstatus_flags)
{
	int fd = wdt_open();

	wdt_get(fd, WDIOC_GETSTATUS);		/* forget the open */
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET, 0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
		      WDIOF_KEEPALIVEPING);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET, 0);
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
		      WDIOF_KEEPALIVEPING);
	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
		      WDIOF_KEEPALIVEPING | WDIOF_MAGICCLOSE);
	/* A keepalive ioctl leaves magic close as it was. */
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	KIT_ASSERT(wdt_armed(fd));
	/* The last write decides. */
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	KIT_ASSERT(!wdt_armed(fd));
	wdt_magic_close(fd);
}

/*
 * A ping that comes while WDIOC_GETSTATUS copies its answer out is for the
 * next WDIOC_GETSTATUS to report.  To make that moment last, the answer
 * goes to a page that userfaultfd holds back until we have pinged.
 */
static int status_fd, status_ret;
static int *status_at;

static void *getstatus_thread(void *arg)
{
	(void)arg;
	status_ret = ioctl(status_fd, WDIOC_GETSTATUS, status_at);
	return NULL;
}

KIT_TEST(getstatus_ping_during_copy)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_copy copy = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	struct uffd_msg msg;
	char *area, *src;
	pthread_t thread;
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		KIT_SKIP("userfaultfd: %s", strerror(errno));
	KIT_ASSERT_OK(ioctl(uffd, UFFDIO_API, &api));
	area = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KIT_ASSERT(area != MAP_FAILED);
	src = area + page;
	memset(src, 0, page);
	reg.range = (struct uffdio_range){ (unsigned long)area, page };
	KIT_ASSERT_OK(ioctl(uffd, UFFDIO_REGISTER, &reg));

	status_fd = wdt_open();
	status_at = (int *)area;
	wdt_get(status_fd, WDIOC_GETSTATUS);	/* forget the open */
	KIT_ASSERT_EQ(pthread_create(&thread, NULL, getstatus_thread, NULL),
		      0);
	/* The thread's copy-out faults, and waits for us: ping meanwhile. */
	KIT_ASSERT_EQ(read(uffd, &msg, sizeof(msg)), sizeof(msg));
	KIT_ASSERT_EQ(msg.event, UFFD_EVENT_PAGEFAULT);
	KIT_ASSERT_OK(ioctl(status_fd, WDIOC_KEEPALIVE, 0));
	copy.dst = (unsigned long)area;
	copy.src = (unsigned long)src;
	copy.len = page;
	KIT_ASSERT_OK(ioctl(uffd, UFFDIO_COPY, &copy));
	KIT_ASSERT_EQ(pthread_join(thread, NULL), 0);
	KIT_ASSERT_EQ(status_ret, 0);
	/* Its answer came from before the ping; the next one tells of it. */
	KIT_ASSERT_EQ(*status_at & WDIOF_KEEPALIVEPING, 0);
	KIT_ASSERT_EQ(wdt_get(status_fd, WDIOC_GETSTATUS) & WDIOF_KEEPALIVEPING,
		      WDIOF_KEEPALIVEPING);
	wdt_magic_close(status_fd);
}

/* ---- opening, closing, magic close */

KIT_TEST(second_open_busy)
{
	int fd = wdt_open();

	KIT_ASSERT_ERRNO(open(DEV, O_RDWR), EBUSY);
	KIT_ASSERT_ERRNO(open(DEV, O_RDONLY), EBUSY);
	KIT_ASSERT_ERRNO(open(DEV, O_WRONLY | O_NONBLOCK), EBUSY);
	wdt_magic_close(fd);
	fd = wdt_open();		/* free again */
	wdt_magic_close(fd);
}

KIT_TEST(magic_close_stops)
{
	long long e0 = expiries();
	int fd = wdt_open();

	wdt_timeout(fd, 1);
	wdt_magic_close(fd);
	sleep_ms(1700);
	KIT_ASSERT_EQ(expiries(), e0);
	/* The next open starts afresh. */
	fd = wdt_open();
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 1);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(close_without_magic_keeps_running)
{
	long long e0 = expiries();
	int fd = wdt_open();

	wdt_timeout(fd, 3);
	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);	/* disarms again */
	KIT_ASSERT_OK(close(fd));
	sleep_ms(1200);
	/* A later open carries on with the same countdown. */
	fd = wdt_open();
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) <= 2);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 1);
	KIT_ASSERT_OK(close(fd));
	/* Left alone, it expires once and stops. */
	KIT_ASSERT(wait_expiries(e0 + 1, 4000));
	sleep_ms(1500);
	KIT_ASSERT_EQ(expiries(), e0 + 1);
	wdt_park();
}

/* ---- pings, the countdown, expiry and pretimeout */

static void keepalive_past_timeout(int by_ioctl)
{
	long long e0 = expiries(), end;
	int fd = wdt_open();

	wdt_timeout(fd, 2);
	end = now_ms() + 4500;
	while (now_ms() < end) {
		sleep_ms(500);
		if (by_ioctl)
			KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
		else
			KIT_ASSERT_EQ(write(fd, "\0", 1), 1);
	}
	KIT_ASSERT_EQ(expiries(), e0);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 1);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(keepalive_by_write)
{
	keepalive_past_timeout(0);
}

KIT_TEST(keepalive_by_ioctl)
{
	keepalive_past_timeout(1);
}

KIT_TEST(timeleft_never_increases)
{
	int fd = wdt_open(), prev, left;
	long long end;

	wdt_timeout(fd, 3);
	prev = 3;
	end = now_ms() + 1600;
	while (now_ms() < end) {
		left = wdt_get(fd, WDIOC_GETTIMELEFT);
		KIT_ASSERT(left <= prev && left >= 1);
		prev = left;
		left = wdt_read(fd);
		KIT_ASSERT(left <= prev && left >= 1);
		prev = left;
		sleep_ms(20);
	}
	KIT_ASSERT(prev <= 2);		/* it did count down */
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 3);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

KIT_TEST(expiry_seen_from_userspace)
{
	long long e0 = expiries(), t0;
	struct pollfd pfd;
	int fd = wdt_open();

	wdt_timeout(fd, 1);
	pfd = (struct pollfd){ .fd = fd, .events = POLLPRI };
	t0 = now_ms();
	KIT_ASSERT_EQ(poll(&pfd, 1, 4000), 1);	/* the expiry wakes poll */
	KIT_ASSERT_EQ(pfd.revents, POLLPRI);
	KIT_ASSERT(now_ms() - t0 >= 900);
	KIT_ASSERT_EQ(expiries(), e0 + 1);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETSTATUS) & WDIOF_CARDRESET);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETBOOTSTATUS), WDIOF_CARDRESET);
	/* It fired and stopped; pings don't start it again. */
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 0);
	KIT_ASSERT_EQ(wdt_read(fd), 0);
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	sleep_ms(1500);
	KIT_ASSERT_EQ(expiries(), e0 + 1);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 0);
	/* WDIOS_ENABLECARD does. */
	wdt_timeout(fd, 30);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETOPTIONS, &(int){ WDIOS_ENABLECARD }));
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 29);
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 0);
	wdt_magic_close(fd);
}

KIT_TEST(pretimeout_wakes_poll)
{
	long long e0 = expiries(), t0, dt;
	struct pollfd pfd;
	int fd = wdt_open(), left;

	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 1);
	KIT_ASSERT_EQ(pfd.revents, POLLIN | POLLOUT);
	pfd.events = POLLPRI;
	wdt_timeout(fd, 3);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 2 }));
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 0);
	t0 = now_ms();
	KIT_ASSERT_EQ(poll(&pfd, 1, 2800), 1);	/* 2 s before the expiry */
	dt = now_ms() - t0;
	KIT_ASSERT_EQ(pfd.revents, POLLPRI);
	KIT_ASSERT(dt >= 900 && dt < 2500);
	KIT_ASSERT_EQ(expiries(), e0);
	left = wdt_get(fd, WDIOC_GETTIMELEFT);
	KIT_ASSERT(left >= 1 && left <= 2);
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 1);	/* until the next ping */
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 0);
	KIT_ASSERT_EQ(expiries(), e0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 0 }));
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

/*
 * A pretimeout set when its moment has passed already (here 5 s before an
 * expiry at most 4 s away) comes at once, not at the expiry: a daemon that
 * sets it late in a period still hears before the end.
 */
KIT_TEST(pretimeout_set_late)
{
	long long e0 = expiries();
	struct pollfd pfd;
	int fd = wdt_open(), left;

	wdt_timeout(fd, 6);
	sleep_ms(2500);
	left = wdt_get(fd, WDIOC_GETTIMELEFT);
	KIT_ASSERT(left >= 3 && left <= 4);	/* more than 2 s to go */
	pfd = (struct pollfd){ .fd = fd, .events = POLLPRI };
	KIT_ASSERT_EQ(poll(&pfd, 1, 0), 0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 5 }));
	KIT_ASSERT_EQ(poll(&pfd, 1, 1000), 1);
	KIT_ASSERT_EQ(pfd.revents, POLLPRI);
	KIT_ASSERT_EQ(expiries(), e0);		/* the pretimeout, not the end */
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 1);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 0 }));
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

/* ---- read and write */

KIT_TEST(read_sizes)
{
	int fd = wdt_open(), left[4];

	wdt_timeout(fd, 30);
	KIT_ASSERT_ERRNO(read(fd, left, 0), EINVAL);
	KIT_ASSERT_ERRNO(read(fd, left, 3), EINVAL);
	memset(left, 0xff, sizeof(left));
	KIT_ASSERT_EQ(read(fd, left, sizeof(left)), sizeof(int));
	KIT_ASSERT(left[0] >= 29 && left[0] <= 30);
	KIT_ASSERT_EQ(left[1], -1);			/* one int only */
	KIT_ASSERT_ERRNO(lseek(fd, 0, SEEK_SET), ESPIPE);
	KIT_ASSERT_ERRNO(pread(fd, left, sizeof(int), 0), ESPIPE);
	wdt_magic_close(fd);
}

/*
 * An int split across two iovecs: the legacy .read sees one segment at a
 * time (2 bytes: too small), read_iter sees the whole iterator.
 */
KIT_TEST(readv_split_int)
{
	unsigned char b[4] = { 0xff, 0xff, 0xff, 0xff };
	struct iovec iov[2] = { { b, 2 }, { b + 2, 2 } };
	int fd = wdt_open(), left;

	wdt_timeout(fd, 30);
	if (kit_form_iter()) {
		KIT_ASSERT_EQ(readv(fd, iov, 2), 4);
		memcpy(&left, b, sizeof(left));
		KIT_ASSERT(left >= 29 && left <= 30);
	} else {
		KIT_ASSERT_ERRNO(readv(fd, iov, 2), EINVAL);
	}
	wdt_magic_close(fd);
}

KIT_TEST(zero_byte_write)
{
	int fd = wdt_open();

	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	wdt_get(fd, WDIOC_GETSTATUS);			/* forget the ping */
	KIT_ASSERT_EQ(write(fd, "x", 0), 0);
	KIT_ASSERT_EQ(write(fd, NULL, 0), 0);
	/* No data: no ping, and magic close stays armed. */
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
		      WDIOF_MAGICCLOSE);
	KIT_ASSERT_OK(close(fd));		/* a magic close */
}

/* Every byte counts, however long the write. */
KIT_TEST(long_write)
{
	size_t n = 1 << 20;
	char *buf = calloc(1, n);
	int fd = wdt_open();

	KIT_ASSERT(buf);
	buf[n - 1] = 'V';
	KIT_ASSERT_EQ(write(fd, buf, n), n);
	KIT_ASSERT(wdt_armed(fd));
	buf[n - 1] = 0;
	KIT_ASSERT_EQ(write(fd, buf, n), n);
	KIT_ASSERT(!wdt_armed(fd));
	buf[0] = 'V';
	KIT_ASSERT_EQ(write(fd, buf, n), n);
	KIT_ASSERT(wdt_armed(fd));
	free(buf);
	KIT_ASSERT_OK(close(fd));
}

/*
 * A writer killed in a long write goes at once, and the write changes
 * nothing.  The child tells us (through a pipe) just before its writev;
 * the kill follows 300 ms later.  Nothing must be armed or pinged after
 * a killed write, but a write that ended before the kill did both; so did
 * the iovecs that the legacy .write finished, one call each, before it.
 */
static void killed_write(const struct iovec *iov, int iovcnt, int must_kill)
{
	long long t0;
	int fd = wdt_open(), pfd[2], status;
	pid_t pid, gone;
	char c = 0;

	KIT_ASSERT_OK(pipe(pfd));
	wdt_get(fd, WDIOC_GETSTATUS);			/* forget the open */
	pid = KIT_ASSERT_OK(fork());
	if (pid == 0) {
		if (write(pfd[1], &c, 1) == 1)
			writev(fd, iov, iovcnt);
		_exit(0);
	}
	KIT_ASSERT_EQ(read(pfd[0], &c, 1), 1);
	sleep_ms(300);
	KIT_ASSERT_OK(kill(pid, SIGKILL));
	t0 = now_ms();
	while (!(gone = waitpid(pid, &status, WNOHANG)) && now_ms() - t0 < 3000)
		sleep_ms(20);
	if (!gone)
		kit_fail("the writer still runs 3 s after SIGKILL");
	KIT_ASSERT_EQ(gone, pid);
	kit_diag("gone %lld ms after SIGKILL", now_ms() - t0);
	if (must_kill)
		KIT_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	if (WIFSIGNALED(status) && (iovcnt == 1 || kit_form_iter()))
		KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
			      0);
	wdt_magic_close(fd);
}

/*
 * One iovec of nearly 2 GiB of 'V' (the most one call takes), one 64 MiB
 * memfd mapped 32 times side by side: the scan is still going at the kill,
 * so the one legacy .write call is killed too and must change nothing.
 * (A write short enough to end near the kill can't tell "killed in the
 * write" from "killed just after it": that raced.)
 */
KIT_TEST(killed_long_write)
{
	size_t n = 64 << 20, copies = 32, i;
	char *area, *buf;
	struct iovec iov;
	int mfd;

	mfd = KIT_ASSERT_OK(memfd_create("killed_long_write", 0));
	KIT_ASSERT_OK(ftruncate(mfd, n));
	buf = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	KIT_ASSERT(buf != MAP_FAILED);
	memset(buf, 'V', n);
	area = mmap(NULL, n * copies, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	KIT_ASSERT(area != MAP_FAILED);
	for (i = 0; i < copies; i++)
		KIT_ASSERT(mmap(area + i * n, n, PROT_READ,
				MAP_SHARED | MAP_FIXED, mfd, 0) != MAP_FAILED);
	iov = (struct iovec){ area, n * copies };
	killed_write(&iov, 1, 1);
	munmap(area, n * copies);
	munmap(buf, n);
	close(mfd);
}

/*
 * Nearly 2 GiB (the most one call takes; 32 iovecs on one 64 MiB buffer):
 * the scan is still going at the kill, and must stop for it.
 */
KIT_TEST(killed_huge_writev)
{
	size_t n = 64 << 20;
	char *buf = malloc(n);
	struct iovec iov[32];
	unsigned int i;

	KIT_ASSERT(buf);
	memset(buf, 'V', n);
	for (i = 0; i < ARRAY_SIZE(iov); i++)
		iov[i] = (struct iovec){ buf, n };
	killed_write(iov, ARRAY_SIZE(iov), 1);
	free(buf);
}

/*
 * The legacy .write runs once per iovec, and the last one decides; the
 * converted .write_iter sees the whole writev at once.
 */
KIT_TEST(writev_magic)
{
	struct iovec xv[2] = { { "x", 1 }, { "V", 1 } };
	struct iovec vx[2] = { { "V", 1 }, { "x", 1 } };
	long long e0 = expiries();
	int fd = wdt_open();

	wdt_timeout(fd, 1);
	KIT_ASSERT_EQ(writev(fd, vx, 2), 2);
	KIT_ASSERT_EQ(wdt_armed(fd), kit_form_iter());
	KIT_ASSERT_EQ(writev(fd, xv, 2), 2);	/* 'V' in a later segment */
	KIT_ASSERT(wdt_armed(fd));
	KIT_ASSERT_OK(close(fd));
	/* It was a magic close: no expiry follows. */
	sleep_ms(1700);
	KIT_ASSERT_EQ(expiries(), e0);
	wdt_park();
}

KIT_TEST(nowait)
{
	struct iovec iov;
	int fd = wdt_open(), left = -1;

	iov = (struct iovec){ &left, sizeof(left) };
	if (kit_form_converted()) {
		KIT_ASSERT_EQ(preadv2(fd, &iov, 1, -1, RWF_NOWAIT), 4);
		KIT_ASSERT(left >= 1);
		wdt_get(fd, WDIOC_GETSTATUS);
		iov = (struct iovec){ "V", 1 };
		KIT_ASSERT_EQ(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT), 1);
		KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
			      WDIOF_MAGICCLOSE | WDIOF_KEEPALIVEPING);
		KIT_ASSERT_OK(close(fd));
	} else {
		KIT_ASSERT_ERRNO(preadv2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		iov = (struct iovec){ "V", 1 };
		KIT_ASSERT_ERRNO(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		KIT_ASSERT(!wdt_armed(fd));
		wdt_magic_close(fd);
	}
}

/* io_uring: the legacy form through io-wq, the converted one inline. */
KIT_TEST(io_uring_rw)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int fd = wdt_open(), left = -1, ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, fd, &left, sizeof(left), -1);
	KIT_ASSERT_EQ(io_uring_submit(&ring), 1);
	KIT_ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	KIT_ASSERT_EQ(cqe->res, sizeof(left));
	KIT_ASSERT(left >= 1);
	io_uring_cqe_seen(&ring, cqe);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_write(sqe, fd, "V", 1, -1);
	KIT_ASSERT_EQ(io_uring_submit(&ring), 1);
	KIT_ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
	KIT_ASSERT_EQ(cqe->res, 1);
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	KIT_ASSERT(wdt_armed(fd));
	KIT_ASSERT_OK(close(fd));		/* a magic close */
}

/* ---- bad pointers: -EFAULT, and nothing changes */

KIT_TEST(bad_pointers)
{
	struct iovec iov[2];
	char *edge = kit_edge_buf(3), *ro;
	int fd = wdt_open(), *two = (int *)kit_edge_buf(2);
	void *bad = kit_bad_ptr();

	wdt_timeout(fd, 20);
	KIT_ASSERT_ERRNO(read(fd, bad, 4), EFAULT);
	KIT_ASSERT_ERRNO(read(fd, edge, 4), EFAULT);

	/* Armed, then a write that faults: still armed, and no ping. */
	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	wdt_get(fd, WDIOC_GETSTATUS);
	memcpy(edge, "xxx", 3);
	KIT_ASSERT_ERRNO(write(fd, bad, 1), EFAULT);
	KIT_ASSERT_ERRNO(write(fd, edge, 4), EFAULT);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETSTATUS) & ~WDIOF_CARDRESET,
		      WDIOF_MAGICCLOSE);
	/* Disarmed, then a faulting write holding a 'V': still disarmed. */
	KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	memcpy(edge, "VVV", 3);
	KIT_ASSERT_ERRNO(write(fd, edge, 4), EFAULT);
	KIT_ASSERT(!wdt_armed(fd));
	/* A writev whose second segment faults: the legacy form has done the
	 * first segment by then (a short writev), the converted form nothing.
	 */
	iov[0] = (struct iovec){ "V", 1 };
	iov[1] = (struct iovec){ bad, 1 };
	if (kit_form_iter()) {
		KIT_ASSERT_ERRNO(writev(fd, iov, 2), EFAULT);
		KIT_ASSERT(!wdt_armed(fd));
	} else {
		KIT_ASSERT_EQ(writev(fd, iov, 2), 1);
		KIT_ASSERT(wdt_armed(fd));
		KIT_ASSERT_EQ(write(fd, "x", 1), 1);
	}

	/* ioctls: no pointer, half an int, and a read-only int. */
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETSUPPORT, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETSUPPORT, edge), EFAULT);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_KEEPALIVE, 0));
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETSTATUS, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETSTATUS, two), EFAULT);
	/* the ping is still to be reported */
	KIT_ASSERT(wdt_get(fd, WDIOC_GETSTATUS) & WDIOF_KEEPALIVEPING);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETBOOTSTATUS, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETTIMEOUT, two), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETPRETIMEOUT, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_GETTIMELEFT, two), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS, two), EFAULT);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 19);	/* running */
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETTIMEOUT, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETTIMEOUT, two), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, bad), EFAULT);
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETPRETIMEOUT, two), EFAULT);
	/* SETTIMEOUT can read 7 here but not write its answer back. */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KIT_ASSERT(ro != MAP_FAILED);
	*(int *)ro = 7;
	KIT_ASSERT_OK(mprotect(ro, 4096, PROT_READ));
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETTIMEOUT, ro), EFAULT);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 20);
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 0);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, ro));	/* reads only */
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETPRETIMEOUT), 7);
	KIT_ASSERT_OK(ioctl(fd, WDIOC_SETPRETIMEOUT, &(int){ 0 }));
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

/*
 * ---- many threads at once: nothing may break (the VM checks the log)
 *
 * For 2.5 s out of every 3.5 nobody pings or starts it, so that the
 * watchdog expires (and the pretimeout comes) while the others go on.
 * Every call must give an answer that some order of the calls explains:
 * timeouts are 1 or 2 s here, and nothing but a pretimeout of 1 s (which
 * a timeout of 1 s refuses) may fail.
 */

static int stress_fd;
static long long stress_start;

#define STRESS_MS	7000

/* Pings, starts and stops only in the first second of each 3.5. */
static int stress_quiet(long long t)
{
	return t % 3500 >= 1000;
}

static void *stress_thread(void *arg)
{
	unsigned int r = (unsigned int)(long)arg * 2654435761u;
	struct pollfd pfd = { .fd = stress_fd, .events = POLLPRI };
	long long t;
	int val;

	while ((t = now_ms() - stress_start) < STRESS_MS) {
		r = r * 1103515245 + 12345;
		val = (r >> 16 & 1) + 1;
		switch ((r >> 8) % 12) {
		case 0:
			if (stress_quiet(t))
				break;
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_KEEPALIVE, 0));
			break;
		case 1:
			if (stress_quiet(t))
				break;
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_SETTIMEOUT, &val));
			KIT_ASSERT(val == 1 || val == 2);
			break;
		case 2:
			if (stress_quiet(t))
				break;
			if (write(stress_fd, r & 1 ? "V" : "x", 1) != 1)
				kit_fail("write: %s", strerror(errno));
			break;
		case 3:
			val--;
			if (ioctl(stress_fd, WDIOC_SETPRETIMEOUT, &val))
				KIT_ASSERT(val == 1 && errno == EINVAL);
			break;
		case 4:
			if (stress_quiet(t))
				break;
			val = WDIOS_DISABLECARD;
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_SETOPTIONS, &val));
			break;
		case 5:
			if (stress_quiet(t))
				break;
			val = WDIOS_ENABLECARD;
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_SETOPTIONS, &val));
			break;
		case 6:
			if (read(stress_fd, &val, sizeof(val)) != sizeof(val))
				kit_fail("read: %s", strerror(errno));
			KIT_ASSERT(val >= 0 && val <= 2);
			break;
		case 7:
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_GETTIMELEFT,
					    &val));
			KIT_ASSERT(val >= 0 && val <= 2);
			break;
		case 8:
			KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_GETSTATUS, &val));
			KIT_ASSERT_EQ(val & ~(WDIOF_CARDRESET |
					      WDIOF_MAGICCLOSE |
					      WDIOF_KEEPALIVEPING), 0);
			break;
		case 9:
			KIT_ASSERT_OK(poll(&pfd, 1, r & 1));
			KIT_ASSERT_EQ(pfd.revents & ~POLLPRI, 0);
			break;
		case 10:
			if (open(DEV, O_RDWR) >= 0)
				kit_fail("a second open succeeded");
			break;
		default:
			sleep_ms(1);
			break;
		}
	}
	return NULL;
}

KIT_TEST(concurrent_use)
{
	struct kit_threads t;

	stress_fd = wdt_open();
	wdt_timeout(stress_fd, 1);
	stress_start = now_ms();
	kit_threads_start(&t, 6, stress_thread);
	kit_threads_join(&t);
	KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_SETOPTIONS,
			    &(int){ WDIOS_ENABLECARD }));
	wdt_timeout(stress_fd, 30);
	KIT_ASSERT_OK(ioctl(stress_fd, WDIOC_SETPRETIMEOUT, &(int){ 0 }));
	wdt_magic_close(stress_fd);
}

/* ---- an existing client, unchanged: busybox's watchdog applet */

/* Whether process pid has DEV open (asking can't open it ourselves). */
static int holds_device(pid_t pid)
{
	char path[64], target[64];
	ssize_t n;
	int fd;

	for (fd = 0; fd < 16; fd++) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, DEV))
			return 1;
	}
	return 0;
}

KIT_TEST(busybox_watchdog)
{
	long long e0 = expiries(), end;
	int fd, status, devnull;
	pid_t pid;

	wdt_park();				/* timeout 30 */
	pid = KIT_ASSERT_OK(fork());
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 1);		/* its pidfile complaint */
		dup2(devnull, 2);
		execlp("busybox", "busybox", "watchdog", "-F", "-T", "3",
		       "-t", "250ms", DEV, (char *)NULL);
		_exit(127);
	}
	/* Wait until it has the device open; then nobody else can open it. */
	end = now_ms() + 5000;
	while (!holds_device(pid) && now_ms() < end)
		sleep_ms(20);
	KIT_ASSERT_ERRNO(open(DEV, O_RDWR), EBUSY);
	/*
	 * It set a 3 s timeout and pings every 250 ms (a margin of 12 pings,
	 * for a guest on a busy host: 2 s and 500 ms once let one expire);
	 * 7 s later it has kept the device alive.
	 */
	sleep_ms(7000);
	KIT_ASSERT_EQ(waitpid(pid, &status, WNOHANG), 0);
	KIT_ASSERT_EQ(expiries(), e0);
	/* On SIGTERM it writes a 'V' and closes: a magic close. */
	KIT_ASSERT_OK(kill(pid, SIGTERM));
	KIT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	KIT_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	sleep_ms(4000);				/* past its 3 s timeout */
	KIT_ASSERT_EQ(expiries(), e0);
	fd = wdt_open();
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 3);
	wdt_timeout(fd, 30);
	wdt_magic_close(fd);
}

/* ---- module unloading, nowayout, parameters (these reload the module) */

KIT_TEST(rmmod_refused_while_open)
{
	int fd = wdt_open();

	KIT_ASSERT_ERRNO(mod_unload(), EWOULDBLOCK);
	wdt_magic_close(fd);
}

/*
 * Without nowayout too, only a magic close or the expiry stops the
 * watchdog: an unexpected close pings it (a full timeout for a daemon to
 * come back), and while it runs it holds the module, so rmmod fails.
 */
static void unexpected_close_checks(void)
{
	int fd = wdt_open();

	sleep_ms(1200);
	KIT_ASSERT_OK(close(fd));
	fd = wdt_open();
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMELEFT), 2);	/* pinged */
	KIT_ASSERT_OK(close(fd));
	KIT_ASSERT_ERRNO(mod_unload(), EWOULDBLOCK);
	/* Running still: it expires, and then lets the module go. */
	KIT_ASSERT(wait_expiries(1, 5000));
	KIT_ASSERT_OK(mod_unload_wait(2000));
	/* After a magic close, nothing holds it. */
	KIT_ASSERT_OK(mod_load("timeout=2"));
	wdt_magic_close(wdt_open());
	KIT_ASSERT_OK(mod_unload());
}

KIT_TEST(rmmod_refused_after_unexpected_close)
{
	with_module("timeout=2", unexpected_close_checks);
}

static void nowayout_checks(void)
{
	char val[8];
	int fd = wdt_open();

	param_str("nowayout", val, sizeof(val));
	KIT_ASSERT(!strcmp(val, "Y"));
	wdt_timeout(fd, 3);
	/* The 'V' is ignored, and nothing stops it. */
	KIT_ASSERT_EQ(write(fd, "V", 1), 1);
	KIT_ASSERT(!wdt_armed(fd));
	KIT_ASSERT_ERRNO(ioctl(fd, WDIOC_SETOPTIONS,
			       &(int){ WDIOS_DISABLECARD }), EBUSY);
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) >= 2);
	KIT_ASSERT_OK(close(fd));
	/* Closed and running: rmmod is refused (the module holds itself). */
	KIT_ASSERT_ERRNO(mod_unload(), EWOULDBLOCK);
	sleep_ms(1000);
	fd = wdt_open();
	KIT_ASSERT(wdt_get(fd, WDIOC_GETTIMELEFT) <= 2);	/* carried on */
	KIT_ASSERT_OK(close(fd));
	KIT_ASSERT_ERRNO(mod_unload(), EWOULDBLOCK);
	/*
	 * The expiry stops it and lets the module go.  The timer counts the
	 * expiry before its module_put(): wait for the put, do not race it.
	 */
	KIT_ASSERT(wait_expiries(1, 4000));
	KIT_ASSERT_OK(mod_unload_wait(2000));
}

KIT_TEST_TIMEOUT(nowayout, 120)
{
	with_module("nowayout=1", nowayout_checks);
}

static void param_checks(void)
{
	char val[16];
	int fd;

	KIT_ASSERT_ERRNO(mod_load("timeout=0"), EINVAL);
	KIT_ASSERT_ERRNO(mod_load("timeout=3601"), EINVAL);
	KIT_ASSERT_ERRNO(mod_load("timeout=-1"), EINVAL);
	KIT_ASSERT_ERRNO(mod_load("action=reboot"), EINVAL);
	KIT_ASSERT_ERRNO(mod_load("action="), EINVAL);
	KIT_ASSERT_ERRNO(mod_load("nowayout=maybe"), EINVAL);
	/* Only the driver counts expiries: a count given at load is refused. */
	KIT_ASSERT_ERRNO(mod_load("expiries=1"), EINVAL);
	KIT_ASSERT_OK(mod_load("timeout=7 action=restart"));
	param_str("action", val, sizeof(val));
	KIT_ASSERT(!strcmp(val, "restart"));
	fd = wdt_open();
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 7);
	wdt_magic_close(fd);
	KIT_ASSERT_OK(mod_unload());
	KIT_ASSERT_OK(mod_load("timeout=3600 action=panic"));
	fd = wdt_open();
	KIT_ASSERT_EQ(wdt_get(fd, WDIOC_GETTIMEOUT), 3600);
	wdt_magic_close(fd);
}

KIT_TEST(module_parameters)
{
	with_module(NULL, param_checks);
}

/*
 * Whatever the tests did, leave the watchdog stopped, by the ioctl rather
 * than the magic close, which a broken write (a lab's mistake) can't do:
 * one left running would hold its module, which kit-run unloads next.
 */
static void wdt_stop(void)
{
	int opt = WDIOS_DISABLECARD;
	int fd = open(DEV, O_WRONLY);

	if (fd < 0)
		return;
	ioctl(fd, WDIOC_SETOPTIONS, &opt);
	close(fd);
}

int main(int argc, char **argv)
{
	int ret = kit_test_main(argc, argv);

	wdt_stop();
	return ret;
}
