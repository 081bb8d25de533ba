// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for /dev/kitfifo (misc-fifo), in either form.
 *
 *	misc-fifo --form legacy|converted	(as root, module just loaded)
 *
 * The device is a bounded queue of events: a write enqueues one event, a
 * read returns one whole event. Most tests expect the same outcome from both
 * forms. Where the kernel treats .read/.write and .read_iter/.write_iter
 * differently (readv/writev, RWF_NOWAIT, splice, kernel_read(), io_uring), a
 * test asserts each form's own outcome and says why.
 *
 * Each test runs in its own process, but the queue lives in the module:
 * fifo_open() empties it first. Tests that need a call to be blocked wait
 * until /proc says the thread sleeps in that system call.
 */
#include "kit_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <poll.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define DEV		"/dev/kitfifo"
#define MODNAME		"kitfifo"
#define RECSIZE		2	/* kfifo's length header in front of each event */
#define BUF_SIZE	65536	/* more than the largest event (U16_MAX) */

static unsigned int max_event;	/* module parameters, from fifo_open() */
static unsigned int queue_size;	/* queue_bytes rounded up to a power of 2 */
static char wbuf[BUF_SIZE], rbuf[BUF_SIZE];

/* FIONREAD: the size of the next event, 0 if none. */
static int next_len(int fd)
{
	int n = -1;

	KIT_ASSERT_OK(ioctl(fd, FIONREAD, &n));
	return n;
}

/* Open the device with extra flags, after emptying the queue. */
static int fifo_open(int flags)
{
	unsigned long long q;
	int fd;

	max_event = kit_module_param(MODNAME, "max_event");
	q = kit_module_param(MODNAME, "queue_bytes");
	for (queue_size = 1; queue_size < q; queue_size <<= 1)
		;
	KIT_ASSERT(max_event > 0 && max_event < BUF_SIZE);

	fd = KIT_ASSERT_OK(open(DEV, O_RDWR | flags));
	while (next_len(fd) > 0)
		KIT_ASSERT_OK(read(fd, rbuf, sizeof(rbuf)));
	return fd;
}

/* Event contents: a pattern that differs by seed and by position. */
static char pattern(unsigned int seed, size_t i)
{
	return seed * 37 + i * 7 + (i >> 8);
}

static void fill(char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern(seed, i);
}

/* Check bytes from..len-1 of an event made by fill(buf, len, seed). */
static void check_from(const char *buf, size_t from, size_t len,
		       unsigned int seed)
{
	size_t i;

	for (i = from; i < len; i++)
		if (buf[i] != pattern(seed, i))
			kit_fail("event %u: byte %zu of %zu is wrong", seed, i,
				 len);
}

static void check(const char *buf, size_t len, unsigned int seed)
{
	check_from(buf, 0, len, seed);
}

static void put(int fd, size_t len, unsigned int seed)
{
	fill(wbuf, len, seed);
	KIT_ASSERT_EQ(write(fd, wbuf, len), len);
}

static void get(int fd, size_t len, unsigned int seed)
{
	memset(rbuf, 0, len);
	KIT_ASSERT_EQ(read(fd, rbuf, sizeof(rbuf)), len);
	check(rbuf, len, seed);
}

static void expect_empty(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	KIT_ASSERT_EQ(next_len(fd), 0);
	KIT_ASSERT_EQ(poll(&p, 1, 0), 0);
}

/* What poll() says now, for POLLIN | POLLOUT. */
static int poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

	KIT_ASSERT_OK(poll(&p, 1, 0));
	return p.revents;
}

/* Fill the queue with max_event events (seeds 0, 1, ...); their number. */
static int fill_up(int nbfd)
{
	int n;

	errno = 0;
	for (n = 0; n <= (int)(queue_size / max_event); n++) {
		fill(wbuf, max_event, n);
		if (KIT_NO_WAIT(SYS_write, write(nbfd, wbuf, max_event)) < 0)
			break;
	}
	KIT_ASSERT_EQ(errno, EAGAIN);	/* and not a queue without end */
	return n;
}

/* The largest event that fits after n events of max_event bytes, or 0. */
static int room_after(int n)
{
	int room = queue_size - n * (max_event + RECSIZE) - RECSIZE;

	return room > 0 ? room : 0;
}

/*
 * Fill the queue to the last byte: fill_up(), then one event of the room
 * left (seed n), if any. The number of max_event events.
 */
static int fill_all(int nbfd)
{
	int n = fill_up(nbfd), room = room_after(n);

	if (room) {
		fill(wbuf, room, n);
		KIT_ASSERT_EQ(write(nbfd, wbuf, room), room);
	}
	KIT_ASSERT_ERRNO(write(nbfd, wbuf, 1), EAGAIN);
	return n;
}

/*
 * A helper thread: it waits until the main thread blocks in system call nr,
 * then runs action(). The main thread makes the blocking call meanwhile.
 */
static struct {
	pid_t tid;
	long nr;
	void (*action)(void);
	struct kit_threads threads;
} helper;

static void *helper_main(void *unused)
{
	kit_wait_blocked(helper.tid, helper.nr);
	helper.action();
	return unused;
}

static void helper_start(long nr, void (*action)(void))
{
	helper.tid = gettid();
	helper.nr = nr;
	helper.action = action;
	kit_threads_start(&helper.threads, 1, helper_main);
}

static void helper_join(void)
{
	kit_threads_join(&helper.threads);
}

/* --- the node --- */

/* The node is root's alone: who else may use it is for udev to say. */
KIT_TEST(node_mode_0600)
{
	struct stat st;

	KIT_ASSERT_OK(stat(DEV, &st));
	KIT_ASSERT(S_ISCHR(st.st_mode));
	KIT_ASSERT_EQ(st.st_mode & 07777, 0600);
	KIT_ASSERT_EQ(st.st_uid, 0);
}

/* --- one event at a time --- */

KIT_TEST(write_read_one_event)
{
	int fd = fifo_open(0);

	put(fd, 100, 1);
	KIT_ASSERT_EQ(next_len(fd), 100);
	get(fd, 100, 1);
	expect_empty(fd);
}

KIT_TEST(events_keep_boundaries_and_order)
{
	int fd = fifo_open(0);

	put(fd, 1, 1);
	put(fd, 50, 2);
	put(fd, 7, 3);
	get(fd, 1, 1);
	get(fd, 50, 2);
	get(fd, 7, 3);
	expect_empty(fd);
}

KIT_TEST(write_max_event)
{
	int fd = fifo_open(0);

	put(fd, max_event, 1);
	KIT_ASSERT_EQ(next_len(fd), max_event);
	get(fd, max_event, 1);
}

KIT_TEST(write_too_long_emsgsize)
{
	int fd = fifo_open(0);

	KIT_ASSERT_ERRNO(write(fd, wbuf, max_event + 1), EMSGSIZE);
	KIT_ASSERT_ERRNO(write(fd, wbuf, sizeof(wbuf)), EMSGSIZE);
	expect_empty(fd);
}

KIT_TEST(write_zero_length)
{
	int nbfd, fd = fifo_open(0);

	KIT_ASSERT_EQ(write(fd, wbuf, 0), 0);
	expect_empty(fd);
	/* Even on a full queue: there is nothing to wait for. */
	nbfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	fill_up(nbfd);
	KIT_ASSERT_EQ(write(nbfd, wbuf, 0), 0);
	KIT_ASSERT_EQ(write(fd, wbuf, 0), 0);
}

KIT_TEST(read_short_buffer_emsgsize)
{
	int fd = fifo_open(0);

	put(fd, 100, 1);
	KIT_ASSERT_ERRNO(read(fd, rbuf, 99), EMSGSIZE);
	KIT_ASSERT_ERRNO(read(fd, rbuf, 1), EMSGSIZE);
	KIT_ASSERT_EQ(next_len(fd), 100);	/* still queued */
	KIT_ASSERT_EQ(read(fd, rbuf, 100), 100);
	check(rbuf, 100, 1);
}

KIT_TEST(fionread_next_event_size)
{
	int fd = fifo_open(0);

	KIT_ASSERT_EQ(next_len(fd), 0);
	put(fd, 10, 1);
	put(fd, 20, 2);
	KIT_ASSERT_EQ(next_len(fd), 10);
	get(fd, 10, 1);
	KIT_ASSERT_EQ(next_len(fd), 20);
	get(fd, 20, 2);
	KIT_ASSERT_EQ(next_len(fd), 0);
}

/* A stream (stream_open()): no position, so no seeking and no pread. */
KIT_TEST(stream_lseek_pread_pwrite_espipe)
{
	struct iovec iov = { wbuf, 10 };
	int fd = fifo_open(0);

	KIT_ASSERT_ERRNO(lseek(fd, 0, SEEK_SET), ESPIPE);
	KIT_ASSERT_ERRNO(lseek(fd, 0, SEEK_CUR), ESPIPE);
	KIT_ASSERT_ERRNO(pwrite(fd, wbuf, 10, 0), ESPIPE);
	KIT_ASSERT_ERRNO(pwritev2(fd, &iov, 1, 0, 0), ESPIPE);
	expect_empty(fd);
	put(fd, 10, 1);
	KIT_ASSERT_ERRNO(pread(fd, rbuf, 10, 0), ESPIPE);
	KIT_ASSERT_ERRNO(preadv2(fd, &iov, 1, 0, 0), ESPIPE);
	get(fd, 10, 1);
}

/* --- a bounded queue --- */

/*
 * kfifo rounds queue_bytes up to a power of two; each event takes its length
 * plus a 2-byte header, and a write needs room for the whole event.
 */
KIT_TEST(queue_capacity)
{
	int fd = fifo_open(O_NONBLOCK);
	int i, n = fill_up(fd);
	int room = room_after(n);

	KIT_ASSERT_EQ(n, queue_size / (max_event + RECSIZE));
	if (room > 0) {
		KIT_ASSERT_ERRNO(write(fd, wbuf, room + 1), EAGAIN);
		put(fd, room, n);
	}
	KIT_ASSERT_ERRNO(write(fd, wbuf, 1), EAGAIN);
	for (i = 0; i < n; i++)
		get(fd, max_event, i);
	if (room > 0)
		get(fd, room, n);
	expect_empty(fd);
}

KIT_TEST(nonblock_read_empty_eagain)
{
	int fd = fifo_open(O_NONBLOCK);

	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_read, read(fd, rbuf, sizeof(rbuf))),
			 EAGAIN);
	put(fd, 10, 1);
	get(fd, 10, 1);
	KIT_ASSERT_ERRNO(read(fd, rbuf, sizeof(rbuf)), EAGAIN);
}

KIT_TEST(nonblock_write_full_eagain)
{
	int fd = fifo_open(O_NONBLOCK);
	int i, n = fill_up(fd);

	KIT_ASSERT(n > 0);
	KIT_ASSERT_ERRNO(write(fd, wbuf, max_event), EAGAIN);
	for (i = 0; i < n; i++)
		get(fd, max_event, i);
	expect_empty(fd);
}

/* O_NONBLOCK set after open(): the driver must look at f_flags each call. */
KIT_TEST(nonblock_set_by_fcntl)
{
	int fd = fifo_open(0);

	KIT_ASSERT_OK(fcntl(fd, F_SETFL, O_NONBLOCK));
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_read, read(fd, rbuf, sizeof(rbuf))),
			 EAGAIN);
	fill_up(fd);
	KIT_ASSERT_ERRNO(write(fd, wbuf, max_event), EAGAIN);
}

static int wfd;		/* the helper's own file */

static void put_one(void)
{
	put(wfd, 100, 7);
}

KIT_TEST(blocked_read_wakes_on_write)
{
	int fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR));
	helper_start(SYS_read, put_one);
	get(fd, 100, 7);
	helper_join();
}

static void get_first(void)
{
	get(wfd, max_event, 0);
}

KIT_TEST(blocked_write_wakes_on_read)
{
	int i, n, fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_up(wfd);
	helper_start(SYS_write, get_first);
	put(fd, max_event, 1000);
	helper_join();
	for (i = 1; i < n; i++)
		get(wfd, max_event, i);
	get(wfd, max_event, 1000);
	expect_empty(fd);
}

static volatile sig_atomic_t signals;

static void on_signal(int sig)
{
	signals += sig == SIGUSR1;
}

static void catch_sigusr1(int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };

	KIT_ASSERT_OK(sigaction(SIGUSR1, &sa, NULL));
}

static pthread_t main_thread;

static void send_signal(void)
{
	pthread_kill(main_thread, SIGUSR1);
}

KIT_TEST(signal_interrupts_blocked_read)
{
	int fd = fifo_open(0);

	catch_sigusr1(0);	/* no SA_RESTART: the call fails with EINTR */
	main_thread = pthread_self();
	helper_start(SYS_read, send_signal);
	KIT_ASSERT_ERRNO(read(fd, rbuf, sizeof(rbuf)), EINTR);
	helper_join();
	KIT_ASSERT_EQ(signals, 1);
	expect_empty(fd);
	put(fd, 10, 1);
	get(fd, 10, 1);
}

KIT_TEST(signal_interrupts_blocked_write)
{
	int i, n, fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_up(wfd);
	catch_sigusr1(0);
	main_thread = pthread_self();
	helper_start(SYS_write, send_signal);
	fill(wbuf, max_event, 1000);
	KIT_ASSERT_ERRNO(write(fd, wbuf, max_event), EINTR);
	helper_join();
	KIT_ASSERT_EQ(signals, 1);
	for (i = 0; i < n; i++)		/* the same events, nothing more */
		get(wfd, max_event, i);
	expect_empty(fd);
}

/* With SA_RESTART the read restarts (-ERESTARTSYS) and blocks again. */
static void signal_then_put(void)
{
	send_signal();
	while (!signals)
		usleep(1000);
	kit_wait_blocked(helper.tid, SYS_read);
	put(wfd, 100, 7);
}

KIT_TEST(signal_sa_restart_restarts_read)
{
	int fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR));
	catch_sigusr1(SA_RESTART);
	main_thread = pthread_self();
	helper_start(SYS_read, signal_then_put);
	get(fd, 100, 7);
	helper_join();
	KIT_ASSERT_EQ(signals, 1);
}

/*
 * A reader in the middle of its copy holds read_lock (here for as long as
 * userfaultfd holds its buffer's page back).  A non-blocking read meanwhile,
 * which poll() says will find an event, waits for the lock, as for a
 * pipe's mutex, and reads the next event: no EAGAIN for a lock held for a
 * copy.  Likewise a non-blocking write while a writer is in its copy.
 */
static struct kit_stall stall;
static int stalled_fd, stalled_write;
static ssize_t stalled_ret;

static void *stalled_call(void *arg)
{
	if (stalled_write)
		stalled_ret = write(stalled_fd, stall.page, 100);
	else
		stalled_ret = read(stalled_fd, stall.page, 100);
	return arg;
}

static void release_stall(void)
{
	kit_stall_release(&stall);
}

/* Start the stalled call (a read, or a write) on fd: it holds the lock. */
static void start_stalled(struct kit_threads *t, int fd, int is_write)
{
	kit_stall_init(&stall);
	stalled_fd = fd;
	stalled_write = is_write;
	kit_threads_start(t, 1, stalled_call);
	kit_stall_wait(&stall);
}

KIT_TEST(nonblock_read_waits_for_a_copy)
{
	struct kit_threads t;
	int nbfd, fd = fifo_open(0);

	put(fd, 100, 1);
	put(fd, 50, 2);
	start_stalled(&t, fd, 0);
	nbfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	KIT_ASSERT(poll_now(nbfd) & POLLIN);
	helper_start(SYS_read, release_stall);
	get(nbfd, 50, 2);
	helper_join();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	check(stall.page, 100, 1);
	expect_empty(fd);
}

KIT_TEST(nonblock_write_waits_for_a_copy)
{
	struct kit_threads t;
	int nbfd, fd = fifo_open(0);

	start_stalled(&t, fd, 1);
	nbfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	KIT_ASSERT(poll_now(nbfd) & POLLOUT);
	helper_start(SYS_write, release_stall);
	put(nbfd, 50, 2);
	helper_join();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	memset(wbuf, 0, 100);			/* the page came zero-filled */
	KIT_ASSERT_EQ(read(fd, rbuf, sizeof(rbuf)), 100);
	KIT_ASSERT(!memcmp(rbuf, wbuf, 100));
	get(fd, 50, 2);
	expect_empty(fd);
}

/*
 * A blocking call waiting for the lock that a copy holds (the stalled
 * call's) is interrupted by a signal like any other wait: EINTR, and
 * neither call loses or adds an event.
 */
KIT_TEST(signal_interrupts_lock_wait_read)
{
	struct kit_threads t;
	int fd2, fd = fifo_open(0);

	put(fd, 100, 1);
	put(fd, 50, 2);
	start_stalled(&t, fd, 0);
	fd2 = KIT_ASSERT_OK(open(DEV, O_RDWR));
	catch_sigusr1(0);
	main_thread = pthread_self();
	helper_start(SYS_read, send_signal);
	KIT_ASSERT_ERRNO(read(fd2, rbuf, sizeof(rbuf)), EINTR);
	helper_join();
	KIT_ASSERT_EQ(signals, 1);
	release_stall();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	check(stall.page, 100, 1);
	get(fd2, 50, 2);
	expect_empty(fd);
}

KIT_TEST(signal_interrupts_lock_wait_write)
{
	struct kit_threads t;
	int fd2, fd = fifo_open(0);

	start_stalled(&t, fd, 1);
	fd2 = KIT_ASSERT_OK(open(DEV, O_RDWR));
	catch_sigusr1(0);
	main_thread = pthread_self();
	helper_start(SYS_write, send_signal);
	fill(wbuf, 50, 3);
	KIT_ASSERT_ERRNO(write(fd2, wbuf, 50), EINTR);
	helper_join();
	KIT_ASSERT_EQ(signals, 1);
	release_stall();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	memset(wbuf, 0, 100);			/* the page came zero-filled */
	KIT_ASSERT_EQ(read(fd, rbuf, sizeof(rbuf)), 100);
	KIT_ASSERT(!memcmp(rbuf, wbuf, 100));
	expect_empty(fd);
}

/* --- poll and epoll --- */

/*
 * EPOLLOUT means "an event fits now", if only a 1-byte one, for a file that
 * was not refused an event since its last write (kitfifo_poll()): it goes
 * away when the queue has no room for any event.
 */
KIT_TEST(poll_reports_in_and_out)
{
	int i, n, fd = fifo_open(O_NONBLOCK);

	KIT_ASSERT_EQ(poll_now(fd), POLLOUT);
	put(fd, 10, 0);
	KIT_ASSERT_EQ(poll_now(fd), POLLIN | POLLOUT);
	get(fd, 10, 0);
	n = fill_all(fd);
	KIT_ASSERT_EQ(poll_now(fd), POLLIN);
	get(fd, max_event, 0);
	KIT_ASSERT_EQ(poll_now(fd), POLLIN | POLLOUT);
	for (i = 1; i < n; i++)
		get(fd, max_event, i);
	if (room_after(n))
		get(fd, room_after(n), n);
	KIT_ASSERT_EQ(poll_now(fd), POLLOUT);
}

/*
 * Room for 10 bytes, not for max_event.  A file that was never refused is
 * told it may write, and its 10-byte event goes in.  One that was refused
 * (EAGAIN) an event is not, until that event fits: a bigger event than
 * the room gets EAGAIN, and then no EPOLLOUT, whatever size was refused;
 * the file's next write that goes in ends that.
 */
KIT_TEST(poll_out_while_a_small_event_fits)
{
	int n, room, other, fd = fifo_open(O_NONBLOCK);

	n = fill_up(fd);			/* refused: max_event */
	room = room_after(n);
	if (room < RECSIZE + 11)
		KIT_SKIP("queue_bytes leaves %d bytes after %d events", room, n);
	other = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	put(other, room - RECSIZE - 10, n);	/* leaves room for 10 bytes */
	KIT_ASSERT_EQ(poll_now(other), POLLIN | POLLOUT);
	KIT_ASSERT_EQ(poll_now(fd), POLLIN);
	KIT_ASSERT_ERRNO(write(other, wbuf, 11), EAGAIN);
	KIT_ASSERT_EQ(poll_now(other), POLLIN);
	put(fd, 10, n + 1);			/* a smaller one goes in */
	KIT_ASSERT_ERRNO(write(fd, wbuf, 1), EAGAIN);
	KIT_ASSERT_EQ(poll_now(fd), POLLIN);
	get(fd, max_event, 0);			/* room for max_event */
	KIT_ASSERT_EQ(poll_now(fd), POLLIN | POLLOUT);
	KIT_ASSERT_EQ(poll_now(other), POLLIN | POLLOUT);
}

/*
 * A writer of max_event-byte events, refused, polls for POLLOUT with a
 * timeout while only smaller events fit: the poll times out, and does not
 * say POLLOUT (which would send a level-triggered writer round poll() and
 * EAGAIN at full speed).  A read that makes room for the event wakes it.
 */
static void get_first_other(void)
{
	get(wfd, max_event, 0);
}

KIT_TEST(poll_out_waits_for_refused_event)
{
	struct pollfd p;
	int i, n, fd = fifo_open(O_NONBLOCK);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_up(fd);
	if (room_after(n) < 1)
		KIT_SKIP("queue_bytes leaves no room after %d events", n);
	KIT_ASSERT_ERRNO(write(fd, wbuf, max_event), EAGAIN);
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	KIT_ASSERT_EQ(poll(&p, 1, 200), 0);
	KIT_ASSERT_EQ(poll_now(wfd), POLLIN | POLLOUT);	/* not refused */
	helper_start(KIT_SYS_POLL, get_first_other);
	KIT_ASSERT_EQ(poll(&p, 1, -1), 1);
	KIT_ASSERT_EQ(p.revents, POLLOUT);
	helper_join();
	put(fd, max_event, n);
	for (i = 1; i <= n; i++)
		get(fd, max_event, i);
	expect_empty(fd);
}

KIT_TEST(epoll_reports_in_and_out)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	int ep, fd = fifo_open(O_NONBLOCK);

	ep = KIT_ASSERT_OK(epoll_create1(0));
	KIT_ASSERT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 1);
	KIT_ASSERT_EQ(ev.events, EPOLLOUT);
	put(fd, 10, 0);
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 1);
	KIT_ASSERT_EQ(ev.events, EPOLLIN | EPOLLOUT);
	get(fd, 10, 0);
	fill_all(fd);
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 1);
	KIT_ASSERT_EQ(ev.events, EPOLLIN);
	get(fd, max_event, 0);
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 1);
	KIT_ASSERT_EQ(ev.events, EPOLLIN | EPOLLOUT);
}

static void put_small(void)
{
	put(wfd, 10, 1);
}

KIT_TEST(poll_wakes_on_write)
{
	struct pollfd p;
	int fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR));
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	helper_start(KIT_SYS_POLL, put_small);
	KIT_ASSERT_EQ(poll(&p, 1, -1), 1);
	KIT_ASSERT_EQ(p.revents, POLLIN);
	helper_join();
	get(fd, 10, 1);
}

KIT_TEST(epoll_wakes_on_read)
{
	struct epoll_event ev = { .events = EPOLLOUT };
	int i, n, ep, fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_all(wfd);
	ep = KIT_ASSERT_OK(epoll_create1(0));
	KIT_ASSERT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 0);
	helper_start(KIT_SYS_EPOLL_WAIT, get_first);
	KIT_ASSERT_EQ(epoll_wait(ep, &ev, 1, -1), 1);
	KIT_ASSERT_EQ(ev.events, EPOLLOUT);
	helper_join();
	for (i = 1; i < n; i++)
		get(fd, max_event, i);
}

/* --- bad user memory: EFAULT, and the queue loses nothing --- */

KIT_TEST(read_bad_pointer_efault_keeps_event)
{
	int fd = fifo_open(0);

	put(fd, 100, 1);
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), 100), EFAULT);
	KIT_ASSERT_EQ(next_len(fd), 100);
	get(fd, 100, 1);
}

/* The first 50 bytes can be copied, the rest fault: still all or nothing. */
KIT_TEST(read_partly_bad_buffer_keeps_event)
{
	char *edge = kit_edge_buf(50);
	int fd = fifo_open(0);

	put(fd, 100, 1);
	KIT_ASSERT_ERRNO(read(fd, edge, 100), EFAULT);
	KIT_ASSERT_EQ(next_len(fd), 100);
	get(fd, 100, 1);
}

KIT_TEST(write_bad_pointer_efault_enqueues_nothing)
{
	char *edge = kit_edge_buf(50);
	int fd = fifo_open(0);

	KIT_ASSERT_ERRNO(write(fd, kit_bad_ptr(), 100), EFAULT);
	expect_empty(fd);
	fill(edge, 50, 1);
	KIT_ASSERT_ERRNO(write(fd, edge, 100), EFAULT);
	expect_empty(fd);
	put(fd, 100, 2);
	get(fd, 100, 2);
}

/* --- where the two forms differ --- */

/*
 * RWF_NOWAIT: the VFS refuses it (EOPNOTSUPP) for .read/.write, and for
 * .read_iter/.write_iter unless open() set FMODE_NOWAIT; the converted driver
 * does, and then fails with EAGAIN instead of blocking, on a blocking file.
 * A stream has no offset: preadv2/pwritev2 take -1 ("the current one").
 */
KIT_TEST(rwf_nowait_read)
{
	struct iovec iov = { rbuf, sizeof(rbuf) };
	int fd = fifo_open(0);

	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(preadv2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		put(fd, 10, 1);
		KIT_ASSERT_ERRNO(preadv2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		KIT_ASSERT_EQ(next_len(fd), 10);
		return;
	}
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
				     preadv2(fd, &iov, 1, -1, RWF_NOWAIT)),
			 EAGAIN);
	put(fd, 10, 1);
	KIT_ASSERT_EQ(preadv2(fd, &iov, 1, -1, RWF_NOWAIT), 10);
	check(rbuf, 10, 1);
	expect_empty(fd);
}

KIT_TEST(rwf_nowait_write)
{
	struct iovec iov = { wbuf, 0 };
	int i, n, fd = fifo_open(0);

	iov.iov_len = max_event;
	fill(wbuf, max_event, 0);
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(pwritev2(fd, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
		expect_empty(fd);
		return;
	}
	for (n = 0; n < 1000; n++) {
		fill(wbuf, max_event, n);
		if (KIT_NO_WAIT(SYS_pwritev2,
				pwritev2(fd, &iov, 1, -1, RWF_NOWAIT)) < 0)
			break;
	}
	KIT_ASSERT_EQ(errno, EAGAIN);
	KIT_ASSERT_EQ(n, queue_size / (max_event + RECSIZE));
	for (i = 0; i < n; i++)
		get(fd, max_event, i);
	expect_empty(fd);
}

/*
 * IOCB_NOWAIT asks more than O_NONBLOCK: no sleep at all, not even for the
 * lock that a copy holds (nonblock_read_waits_for_a_copy's), so under
 * RWF_NOWAIT a read or write that finds it held returns EAGAIN at once,
 * and takes or queues nothing.  Legacy (and the forms without
 * FMODE_NOWAIT): EOPNOTSUPP, as rwf_nowait_read says.
 */
KIT_TEST(rwf_nowait_read_lock_held)
{
	struct iovec iov = { rbuf, sizeof(rbuf) };
	struct kit_threads t;
	int fd2, fd = fifo_open(0);

	put(fd, 100, 1);
	put(fd, 50, 2);
	start_stalled(&t, fd, 0);
	fd2 = KIT_ASSERT_OK(open(DEV, O_RDWR));
	if (kit_form_converted())
		KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
					     preadv2(fd2, &iov, 1, -1,
						     RWF_NOWAIT)),
				 EAGAIN);
	else
		KIT_ASSERT_ERRNO(preadv2(fd2, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
	release_stall();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	check(stall.page, 100, 1);
	get(fd2, 50, 2);
	expect_empty(fd);
}

KIT_TEST(rwf_nowait_write_lock_held)
{
	struct iovec iov = { wbuf, 50 };
	struct kit_threads t;
	int fd2, fd = fifo_open(0);

	start_stalled(&t, fd, 1);
	fd2 = KIT_ASSERT_OK(open(DEV, O_RDWR));
	fill(wbuf, 50, 3);
	if (kit_form_converted())
		KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_pwritev2,
					     pwritev2(fd2, &iov, 1, -1,
						      RWF_NOWAIT)),
				 EAGAIN);
	else
		KIT_ASSERT_ERRNO(pwritev2(fd2, &iov, 1, -1, RWF_NOWAIT),
				 EOPNOTSUPP);
	release_stall();
	kit_threads_join(&t);
	KIT_ASSERT_EQ(stalled_ret, 100);
	memset(wbuf, 0, 100);			/* the page came zero-filled */
	KIT_ASSERT_EQ(read(fd, rbuf, sizeof(rbuf)), 100);
	KIT_ASSERT(!memcmp(rbuf, wbuf, 100));
	expect_empty(fd);
}

/*
 * splice needs .splice_read, which the converted driver gets from
 * copy_splice_read() (over its read_iter); without it the VFS says EINVAL.
 */
KIT_TEST(splice_to_pipe)
{
	int p[2], fd = fifo_open(0);

	KIT_ASSERT_OK(pipe(p));
	put(fd, 100, 1);
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(splice(fd, NULL, p[1], NULL, 4096, 0), EINVAL);
		KIT_ASSERT_EQ(next_len(fd), 100);
		return;
	}
	/* A splice shorter than the event is a short buffer. */
	KIT_ASSERT_ERRNO(splice(fd, NULL, p[1], NULL, 99, 0), EMSGSIZE);
	KIT_ASSERT_EQ(splice(fd, NULL, p[1], NULL, 4096, 0), 100);
	expect_empty(fd);
	KIT_ASSERT_EQ(read(p[0], rbuf, sizeof(rbuf)), 100);
	check(rbuf, 100, 1);
}

/*
 * sendfile to a pipe splices like splice(); to a regular file it goes
 * through splice_direct_to_actor(), which wants a seekable input
 * (FMODE_LSEEK): a stream gets EINVAL there in both forms.
 */
KIT_TEST(sendfile_to_pipe_and_file)
{
	char path[] = "/tmp/kitfifo.XXXXXX";
	int p[2], tmp, fd = fifo_open(0);

	KIT_ASSERT_OK(pipe(p));
	tmp = KIT_ASSERT_OK(mkstemp(path));
	unlink(path);
	put(fd, 100, 1);
	KIT_ASSERT_ERRNO(sendfile(tmp, fd, NULL, 100), EINVAL);
	KIT_ASSERT_EQ(next_len(fd), 100);
	if (!kit_form_converted()) {
		KIT_ASSERT_ERRNO(sendfile(p[1], fd, NULL, 4096), EINVAL);
		KIT_ASSERT_EQ(next_len(fd), 100);
		return;
	}
	KIT_ASSERT_EQ(sendfile(p[1], fd, NULL, 4096), 100);
	expect_empty(fd);
	KIT_ASSERT_EQ(read(p[0], rbuf, sizeof(rbuf)), 100);
	check(rbuf, 100, 1);
}

/*
 * kernel_read(), the kernel's own way to read a file (exec, the firmware
 * loader, kernel_read_file()), calls ->read_iter only: __kernel_read() fails
 * with -EINVAL, after a pr_warn "kernel read not supported", for a file that
 * has ->read. kit_kread.ko does one kernel_read() of up to 256 bytes from its
 * path= at load, and its load fails with the error; see its header.  It
 * is built in common/selftest/, and this program in tests/.
 */
#define KREAD_KO	"../common/selftest/kit_kread.ko"

KIT_TEST(kernel_read)
{
	const char *path = kit_test_path(KREAD_KO);
	int ko, bytes, fd = fifo_open(0);

	if (geteuid())
		KIT_SKIP("needs root to load a module");
	ko = open(path, O_RDONLY | O_CLOEXEC);
	if (ko < 0)
		kit_fail("%.200s: %s (make builds it)", path, strerror(errno));
	put(fd, 100, 1);
	if (!kit_form_iter()) {
		KIT_ASSERT_ERRNO(syscall(SYS_finit_module, ko, "path=" DEV, 0),
				 EINVAL);
		get(fd, 100, 1);	/* still queued */
		return;
	}
	KIT_ASSERT_OK(syscall(SYS_finit_module, ko, "path=" DEV, 0));
	bytes = kit_module_param("kit_kread", "bytes");
	KIT_ASSERT_OK(syscall(SYS_delete_module, "kit_kread", O_NONBLOCK));
	KIT_ASSERT_EQ(bytes, 100);
	expect_empty(fd);		/* the kernel read it */
}

/*
 * writev: .write_iter sees all segments at once, so they make one event;
 * for .write the VFS (do_loop_readv_writev()) calls .write once per segment,
 * which makes one event per segment.
 */
KIT_TEST(writev_three_segments)
{
	struct iovec iov[3] = {
		{ wbuf, 10 }, { wbuf + 10, 20 }, { wbuf + 30, 30 },
	};
	int fd = fifo_open(0);

	fill(wbuf, 60, 1);
	KIT_ASSERT_EQ(writev(fd, iov, 3), 60);
	if (kit_form_iter()) {
		get(fd, 60, 1);
	} else {
		KIT_ASSERT_EQ(read(fd, rbuf, sizeof(rbuf)), 10);
		KIT_ASSERT_EQ(read(fd, rbuf + 10, sizeof(rbuf) - 10), 20);
		KIT_ASSERT_EQ(read(fd, rbuf + 30, sizeof(rbuf) - 30), 30);
		check(rbuf, 60, 1);
	}
	expect_empty(fd);
}

/* Segments that each fit but together don't: one event too long, or two. */
KIT_TEST(writev_over_max_event)
{
	struct iovec iov[2] = { { wbuf, 0 }, { wbuf, 1 } };
	int fd = fifo_open(0);

	iov[0].iov_len = max_event;
	fill(wbuf, max_event, 1);
	if (kit_form_iter()) {
		KIT_ASSERT_ERRNO(writev(fd, iov, 2), EMSGSIZE);
		expect_empty(fd);
		return;
	}
	KIT_ASSERT_EQ(writev(fd, iov, 2), max_event + 1);
	get(fd, max_event, 1);
	get(fd, 1, 1);
}

/*
 * readv: .read_iter fills the segments in turn with one event. For .read the
 * VFS calls .read once per segment and stops after an error (returning it
 * only if nothing was read) or after a segment that was not filled: a
 * 10-byte segment can't take a 25-byte event (EMSGSIZE).
 */
KIT_TEST(readv_one_event_across_segments)
{
	struct iovec iov[3] = {
		{ rbuf, 10 }, { rbuf + 10, 10 }, { rbuf + 20, 20 },
	};
	int fd = fifo_open(0);

	put(fd, 25, 1);
	if (!kit_form_iter()) {
		KIT_ASSERT_ERRNO(readv(fd, iov, 3), EMSGSIZE);
		KIT_ASSERT_EQ(next_len(fd), 25);
		return;
	}
	KIT_ASSERT_EQ(readv(fd, iov, 3), 25);
	check(rbuf, 25, 1);
	expect_empty(fd);
}

/*
 * Events of 10, 10, 7 and 9 bytes, segments of 10, 10 and 10. Legacy: one
 * event per segment while they fill exactly; the 7-byte event leaves its
 * segment short, so readv stops there (27 bytes, 3 events). Converted: one
 * event, 10 bytes.
 */
KIT_TEST(readv_events_per_segment)
{
	struct iovec iov[3] = {
		{ rbuf, 10 }, { rbuf + 10, 10 }, { rbuf + 20, 10 },
	};
	int fd = fifo_open(0);

	put(fd, 10, 1);
	put(fd, 10, 2);
	put(fd, 7, 3);
	put(fd, 9, 4);
	if (kit_form_iter()) {
		KIT_ASSERT_EQ(readv(fd, iov, 3), 10);
		check(rbuf, 10, 1);
		get(fd, 10, 2);
		get(fd, 7, 3);
	} else {
		KIT_ASSERT_EQ(readv(fd, iov, 3), 27);
		check(rbuf, 10, 1);
		check(rbuf + 10, 10, 2);
		check(rbuf + 20, 7, 3);
	}
	get(fd, 9, 4);
	expect_empty(fd);
}

/*
 * Legacy only: after an event fills the first segment exactly, readv goes
 * on to the next one and blocks there for another event, although it has
 * one already. The converted readv returns the first event at once (a
 * converted form that waits dies of SIGALRM in 5 s, not at the timeout).
 */
static void put_second(void)
{
	put(wfd, 10, 2);
}

KIT_TEST(readv_exact_segment_blocks_legacy)
{
	struct iovec iov[2] = { { rbuf, 10 }, { rbuf + 10, 10 } };
	int fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR));
	put(fd, 10, 1);
	if (kit_form_iter()) {
		alarm(5);
		KIT_ASSERT_EQ(readv(fd, iov, 2), 10);
		alarm(0);
		check(rbuf, 10, 1);
		expect_empty(fd);
		return;
	}
	helper_start(SYS_readv, put_second);
	KIT_ASSERT_EQ(readv(fd, iov, 2), 20);
	helper_join();
	check(rbuf, 10, 1);
	check(rbuf + 10, 10, 2);
}

/* --- io_uring: legacy goes through io-wq workers, converted may not --- */

static void uring_init(struct io_uring *ring)
{
	int ret = io_uring_queue_init(8, ring, 0);

	/* The kernel may lack it or forbid it (sysctl io_uring_disabled). */
	if (ret < 0)
		KIT_SKIP("io_uring_queue_init: %s", strerror(-ret));
}

static void uring_queue(struct io_uring *ring, int fd, int write_op,
			char *buf, unsigned int len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	KIT_ASSERT(sqe);
	if (write_op)
		io_uring_prep_write(sqe, fd, buf, len, -1);
	else
		io_uring_prep_read(sqe, fd, buf, len, -1);
	sqe->user_data = write_op;
	/* io_uring's first try is inline, with IOCB_NOWAIT: it can't wait. */
	KIT_ASSERT_EQ(KIT_NO_WAIT(SYS_io_uring_enter, io_uring_submit(ring)),
		      1);
}

/* Wait (10 s at most) for n completions; their results by operation. */
static void uring_wait(struct io_uring *ring, int n, int res[2])
{
	struct __kernel_timespec ts = { .tv_sec = 10 };
	struct io_uring_cqe *cqe;

	res[0] = INT_MIN;
	res[1] = INT_MIN;
	while (n--) {
		KIT_ASSERT_EQ(io_uring_wait_cqe_timeout(ring, &cqe, &ts), 0);
		KIT_ASSERT(cqe->user_data < 2);
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
}

/* The next completion must be write_op's, with result res. */
static void uring_expect(struct io_uring *ring, int write_op, int res)
{
	int r[2];

	uring_wait(ring, 1, r);
	KIT_ASSERT_EQ(r[write_op], res);
}

static void uring_expect_none(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;

	usleep(200000);
	KIT_ASSERT_EQ(io_uring_peek_cqe(ring, &cqe), -EAGAIN);
}

KIT_TEST(uring_read_waits_for_uring_write)
{
	struct io_uring ring;
	int res[2], fd = fifo_open(0);

	uring_init(&ring);
	uring_queue(&ring, fd, 0, rbuf, sizeof(rbuf));
	uring_expect_none(&ring);
	fill(wbuf, 100, 1);
	uring_queue(&ring, fd, 1, wbuf, 100);
	uring_wait(&ring, 2, res);	/* in either order */
	KIT_ASSERT_EQ(res[0], 100);
	KIT_ASSERT_EQ(res[1], 100);
	io_uring_queue_exit(&ring);
	check(rbuf, 100, 1);
	expect_empty(fd);
}

KIT_TEST(uring_read_waits_for_write_call)
{
	struct io_uring ring;
	int fd = fifo_open(0);

	uring_init(&ring);
	uring_queue(&ring, fd, 0, rbuf, sizeof(rbuf));
	uring_expect_none(&ring);
	put(fd, 100, 1);
	uring_expect(&ring, 0, 100);
	check(rbuf, 100, 1);
	/* With an event queued, the read completes at once. */
	put(fd, 50, 2);
	uring_queue(&ring, fd, 0, rbuf, sizeof(rbuf));
	uring_expect(&ring, 0, 50);
	check(rbuf, 50, 2);
	/* A short buffer fails as it does for read(). */
	put(fd, 50, 3);
	uring_queue(&ring, fd, 0, rbuf, 49);
	uring_expect(&ring, 0, -EMSGSIZE);
	get(fd, 50, 3);
	io_uring_queue_exit(&ring);
}

/* The number of this process's io-wq worker threads ("iou-wrk-PID"). */
static int uring_workers(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	char comm[64];
	int n = 0;

	KIT_ASSERT(dir);
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		kit_read_task_file(atoi(d->d_name), "comm", comm, sizeof(comm));
		n += !strncmp(comm, "iou-wrk", 7);
	}
	closedir(dir);
	return n;
}

/*
 * Who does a read that has to wait. In both forms io_uring first issues it
 * non-blocking and gets -EAGAIN (legacy: without FMODE_NOWAIT io_read() does
 * not call ->read at all; converted: IOCB_NOWAIT makes read_iter say so), then
 * arms a poll on the file: no thread waits, so no io-wq worker yet. The
 * event's wakeup retries the read from task work, non-blocking again.
 * Converted: it succeeds there, inline. Legacy: -EAGAIN again (6.1: still no
 * FMODE_NOWAIT; 6.12: vfs_poll() now says EPOLLIN, so io_file_supports_nowait()
 * lets IOCB_NOWAIT through, but loop_rw_iter() refuses it on a file without
 * O_NONBLOCK), the poll is re-armed, fires at once, and so on until the
 * request's APOLL_MAX_RETRY (128) arms are used up; then io-wq takes it and a
 * worker does the blocking ->read. io-wq keeps its last worker when idle, so
 * it is still there to count. ftrace on 6.1 and 6.12 alike: legacy 129
 * io_read(), 128 io_arm_poll_handler(), 1 io_wq_enqueue(); converted 2, 1, 0.
 * A converted driver without FMODE_NOWAIT fails here on 6.1 only: 6.12 lets
 * IOCB_NOWAIT through on a ready pollable file (rwf_nowait_read catches it).
 * So the native form (scripts/convert's, without FMODE_NOWAIT) is read
 * inline from 6.12 on, and by a worker before.
 */
KIT_TEST(uring_read_worker_or_inline)
{
	struct io_uring ring;
	int waiting, after, fd = fifo_open(0);

	uring_init(&ring);
	uring_queue(&ring, fd, 0, rbuf, sizeof(rbuf));
	uring_expect_none(&ring);
	waiting = uring_workers();
	put(fd, 100, 1);
	uring_expect(&ring, 0, 100);
	check(rbuf, 100, 1);
	after = uring_workers();
	kit_diag("io-wq workers: %d while the read waits, %d after it", waiting,
		 after);
	KIT_ASSERT_EQ(waiting, 0);
	KIT_ASSERT_EQ(after, kit_form_converted() ||
		      (kit_form_iter() && kit_kernel_at_least(6, 12)) ? 0 : 1);
	io_uring_queue_exit(&ring);
	expect_empty(fd);
}

/*
 * The native form ignores IOCB_NOWAIT (scripts/convert leaves that to the
 * author, and says so), and from 6.12 io_uring passes it to a pollable
 * file that polls writable even without FMODE_NOWAIT: the write then
 * blocks the submitter itself, and this test with it.
 */
KIT_TEST(uring_write_waits_for_room)
{
	struct io_uring ring;
	int i, n, fd;

	if (kit_form_iter() && !kit_form_converted() &&
	    kit_kernel_at_least(6, 12))
		KIT_SKIP("native form: no IOCB_NOWAIT, which io_uring gives from 6.12");
	fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_up(wfd);
	uring_init(&ring);
	fill(wbuf, max_event, 1000);
	uring_queue(&ring, fd, 1, wbuf, max_event);
	uring_expect_none(&ring);
	get(wfd, max_event, 0);
	uring_expect(&ring, 1, max_event);
	for (i = 1; i < n; i++)
		get(wfd, max_event, i);
	get(wfd, max_event, 1000);
	io_uring_queue_exit(&ring);
}

/*
 * A small io_uring write into a queue with room for it but not for an event
 * of max_event bytes: it must go in, with no reader to make more room, as
 * write(2) would. The converted form takes it inline. The legacy one gets
 * -EAGAIN (no FMODE_NOWAIT), and io_uring retries it when poll says
 * EPOLLOUT: if that meant "max_event fits", it would wait for ever.
 */
KIT_TEST(uring_small_write_needs_no_reader)
{
	struct io_uring ring;
	int n, room, fd = fifo_open(0);

	wfd = KIT_ASSERT_OK(open(DEV, O_RDWR | O_NONBLOCK));
	n = fill_up(wfd);
	room = room_after(n);
	if (room < 10)
		KIT_SKIP("queue_bytes leaves %d bytes after %d events", room, n);
	uring_init(&ring);
	fill(wbuf, 10, 1000);
	uring_queue(&ring, fd, 1, wbuf, 10);
	uring_expect(&ring, 1, 10);
	io_uring_queue_exit(&ring);
	get(wfd, max_event, 0);
}

/* --- many threads at once --- */

#define WRITERS		4
#define READERS		4
#define PER_WRITER	25000
#define STOP		0xffffffffu	/* writer id of the readers' end mark */

struct event {
	uint32_t writer;
	uint32_t seq;
	uint32_t len;		/* of the whole event, this header included */
};

static unsigned char seen[WRITERS][PER_WRITER];
static unsigned int received;

static unsigned int event_len(unsigned int w, unsigned int seq)
{
	if (seq % 997 == 0)
		return max_event;
	return sizeof(struct event) + (seq * 37 + w * 11) % 244;
}

static void *writer(void *arg)
{
	unsigned int w = (long)arg, seq, len;
	int fd = KIT_ASSERT_OK(open(DEV, O_WRONLY));
	char buf[BUF_SIZE];
	struct event *ev = (struct event *)buf;

	for (seq = 0; seq < PER_WRITER; seq++) {
		len = event_len(w, seq);
		fill(buf, len, w * PER_WRITER + seq);
		*ev = (struct event){ w, seq, len };
		KIT_ASSERT_EQ(write(fd, buf, len), len);
	}
	close(fd);
	return NULL;
}

static void *reader(void *arg)
{
	int i, fd = KIT_ASSERT_OK(open(DEV, O_RDONLY));
	char buf[BUF_SIZE];
	struct event *ev = (struct event *)buf;
	long last[WRITERS];
	ssize_t n;

	for (i = 0; i < WRITERS; i++)
		last[i] = -1;
	for (;;) {
		n = KIT_ASSERT_OK(read(fd, buf, sizeof(buf)));
		KIT_ASSERT(n >= (ssize_t)sizeof(*ev));
		if (ev->writer == STOP)
			break;
		KIT_ASSERT(ev->writer < WRITERS && ev->seq < PER_WRITER);
		KIT_ASSERT_EQ(n, ev->len);
		KIT_ASSERT_EQ(n, event_len(ev->writer, ev->seq));
		/* One reader sees each writer's events in order. */
		KIT_ASSERT(ev->seq > last[ev->writer]);
		last[ev->writer] = ev->seq;
		check_from(buf, sizeof(*ev), n,
			   ev->writer * PER_WRITER + ev->seq);
		if (__atomic_fetch_add(&seen[ev->writer][ev->seq], 1,
				       __ATOMIC_RELAXED))
			kit_fail("event %u of writer %u read twice", ev->seq,
				 ev->writer);
		__atomic_fetch_add(&received, 1, __ATOMIC_RELAXED);
	}
	close(fd);
	return arg;
}

/*
 * Blocking writers and readers at once, each with its own file; then one
 * end mark per reader, which comes after all the events (a FIFO).
 */
KIT_TEST_TIMEOUT(threads_move_100000_events, 300)
{
	struct event stop = { STOP, 0, sizeof(stop) };
	struct kit_threads readers, writers;
	struct timespec t0, t1;
	int i, w, seq, fd = fifo_open(0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	kit_threads_start(&readers, READERS, reader);
	kit_threads_start(&writers, WRITERS, writer);
	kit_threads_join(&writers);
	for (i = 0; i < READERS; i++)
		KIT_ASSERT_EQ(write(fd, &stop, sizeof(stop)), sizeof(stop));
	kit_threads_join(&readers);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kit_diag("%d events in %.1f s", received, t1.tv_sec - t0.tv_sec +
		 (t1.tv_nsec - t0.tv_nsec) / 1e9);

	for (w = 0; w < WRITERS; w++)
		for (seq = 0; seq < PER_WRITER; seq++)
			if (seen[w][seq] != 1)
				kit_fail("event %d of writer %d lost", seq, w);
	KIT_ASSERT_EQ(received, WRITERS * PER_WRITER);
	expect_empty(fd);
}

/* --- the module --- */

/*
 * .owner = THIS_MODULE holds the module while a file is open. delete_module()
 * then fails in try_stop_module() with -EWOULDBLOCK (EAGAIN), in 6.1 and 6.12
 * alike (kernel/module/main.c), and the module stays usable.
 */
KIT_TEST(rmmod_fails_while_open)
{
	int fd = fifo_open(0);

	if (geteuid())
		KIT_SKIP("needs root for delete_module()");
	KIT_ASSERT_ERRNO(syscall(SYS_delete_module, MODNAME, O_NONBLOCK),
			 EWOULDBLOCK);
	put(fd, 10, 1);
	get(fd, 10, 1);
}

int main(int argc, char **argv)
{
	return kit_test_main(argc, argv);
}
