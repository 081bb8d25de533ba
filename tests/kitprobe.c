// SPDX-License-Identifier: GPL-2.0
/*
 * kitprobe - one row of `make matrix`: what each way into a driver does,
 * tried with real system calls on the device of one of the kit's drivers.
 *
 *	kitprobe DRIVER [PATH]	(as root, with the driver's module loaded)
 *	kitprobe --header	(the names of the columns)
 *
 * DRIVER is the driver's directory (misc-fifo, watchdog, skeleton,
 * debugfs-demo, procfs-demo); PATH overrides the file probed, which is the
 * device node, or the attribute drivers' "value" file.  Prints one line of
 * cells separated by tabs, one per probe:
 *
 *	read     read()
 *	write    write()
 *	readv    readv(): "1 call" if the driver saw one call for all the
 *		 segments, "per seg" if one per segment (see each driver's
 *		 *_readv() for how that shows)
 *	writev   writev(): the same, for the driver's write
 *	nowait   preadv2(..., RWF_NOWAIT)
 *	uring-r  an io_uring read
 *	uring-w  an io_uring write
 *	uring-fixed an io_uring READ_FIXED into a registered buffer (the
 *		 kernel hands ->read_iter() an ITER_BVEC, and gives ->read()
 *		 the buffer's user address)
 *	splice   splice() from the file into a pipe
 *	sendfile sendfile() from the file into a pipe
 *	poll     poll() for POLLIN | POLLOUT | POLLPRI, not waiting, once the
 *		 data is readable (or 5 s passed): the revents, as IN,OUT
 *		 (a comma: "|" would split a Markdown table cell)
 *	lseek    lseek(fd, 0, SEEK_SET)
 *
 * A cell is "ok" when the call succeeded, or the name of its errno
 * (EINVAL); "EOF" is a read that found nothing, "short" a write that took
 * less than it was given.  Every read-side probe first makes data ready (on
 * misc-fifo an event, on skeleton an echo from the gadget), so that nothing
 * should block, and afterwards takes back whatever is still queued: each
 * probe opens the file afresh (the watchdog, which allows one opener and
 * starts when opened, is opened once, and stopped with a 'V' at the end)
 * and leaves the device as it found it, so no cell depends on another.  Each
 * probe runs in a child process under a timeout: a call that blocks shows as
 * "hang", a crash as the signal's name (SEGV), a probe that could not set
 * up or clean up as "error" (with the reason on stderr).
 *
 * Exit status: 0 if every probe ran, 1 if one hung, crashed or met an
 * error, 2 for bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <liburing.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/watchdog.h>

#define CELL		32	/* bytes of one cell, with its NUL */
#define PROBE_TIMEOUT	20	/* seconds: generous, under QEMU without KVM */
#define NOWAIT_TRIES	100	/* RWF_NOWAIT: EAGAIN this often, 50 ms apart */
#define READY_WAIT_MS	5000	/* poll: for the data to be readable */
#define BUF_SIZE	8192
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct probe;

/* What kitprobe knows about each driver. */
struct driver {
	const char *name;
	const char *path;		/* the file probed; NULL: find_skel() */
	int single_open;		/* one file for all probes (watchdog) */
	int echo;			/* what is written comes back (skeleton) */
	const char *wdata;		/* what write probes write; NULL: saved */
	void (*ready)(struct probe *p);	/* make data ready for a read */
	void (*drain)(struct probe *p);	/* take back what is still queued */
	const char *(*readv)(struct probe *p);
	const char *(*writev)(struct probe *p);
};

/* One probe's state, in its child process. */
struct probe {
	const char *name;
	int fd;
	size_t queued;			/* skeleton: bytes echoed, not read */
};

static const struct driver *drv;
static const char *path;
static int shared_fd = -1;		/* single_open: the one file */
static char saved[64];			/* attribute files: the first value */
static size_t saved_len;
static char buf[4][BUF_SIZE];

/* A probe that cannot go on: say why (with errno e if set), end it. */
static noreturn void vfail(struct probe *p, int e, const char *fmt,
			   va_list ap)
{
	fprintf(stderr, "kitprobe: %s: %s: ", drv->name, p ? p->name : "setup");
	vfprintf(stderr, fmt, ap);
	if (e)
		fprintf(stderr, " (%s)", strerrorname_np(e));
	fprintf(stderr, "\n");
	exit(1);
}

/* A call failed. */
static noreturn void fail(struct probe *p, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vfail(p, e, fmt, ap);
}

/* A call gave something that none of the cells describes. */
static noreturn void odd(struct probe *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(p, 0, fmt, ap);
}

static const char *errname(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "E?";
}

/* The cell for a call that returned ret (-1 with errno on failure). */
static const char *outcome(ssize_t ret)
{
	return ret < 0 ? errname(errno) : "ok";
}

static int dev_open(struct probe *p)
{
	int fd;

	if (shared_fd >= 0)
		return shared_fd;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail(p, "open %s", path);
	return fd;
}

static void put(struct probe *p, const void *data, size_t len)
{
	ssize_t r = write(p->fd, data, len);

	if (r < 0)
		fail(p, "write of %zu bytes", len);
	if (r != (ssize_t)len)
		odd(p, "write of %zu bytes took %zd", len, r);
}

static void ready(struct probe *p)
{
	if (drv->ready)
		drv->ready(p);
}

/* A successful read-side call took n bytes of what was queued. */
static void took(struct probe *p, ssize_t n)
{
	if (n > 0)
		p->queued -= (size_t)n > p->queued ? p->queued : (size_t)n;
}

/* What a write probe writes: the driver's data, or the saved value. */
static const char *wdata(size_t *len)
{
	const char *s = drv->wdata ? drv->wdata : saved;

	*len = drv->wdata ? strlen(s) : saved_len;
	return s;
}

/*
 * The readv or writev cell from what userspace could see: n is one_call if
 * the driver handled all the segments in one call, per_seg if it was called
 * once per segment; what says what n is, should it be neither.
 */
static const char *calls(struct probe *p, long n, long one_call,
			 long per_seg, const char *what)
{
	if (n == one_call)
		return "1 call";
	if (n == per_seg)
		return "per seg";
	odd(p, "%s: %ld", what, n);
}

/* --- misc-fifo: one write is one event, one read one event --- */

static void fifo_ready(struct probe *p)
{
	put(p, "kitprobe", 8);
}

static int fifo_next(struct probe *p)
{
	int n = -1;

	if (ioctl(p->fd, FIONREAD, &n))
		fail(p, "FIONREAD");
	return n;
}

static void fifo_drain(struct probe *p)
{
	while (fifo_next(p) > 0)
		if (read(p->fd, buf[0], BUF_SIZE) < 0)
			fail(p, "read while draining");
}

/* Two events of 4 bytes, segments of 4 and 4: one event, or both. */
static const char *fifo_readv(struct probe *p)
{
	struct iovec iov[2] = { { buf[0], 4 }, { buf[1], 4 } };
	ssize_t r;

	put(p, "abcd", 4);
	put(p, "efgh", 4);
	r = readv(p->fd, iov, 2);
	if (r < 0)
		return errname(errno);
	return calls(p, r, 4, 8, "readv returned");
}

/* Segments of 1, 2 and 3 bytes: the first event is 6 bytes, or 1. */
static const char *fifo_writev(struct probe *p)
{
	struct iovec iov[3] = { { "a", 1 }, { "bb", 2 }, { "ccc", 3 } };
	ssize_t r = writev(p->fd, iov, 3);

	if (r < 0)
		return errname(errno);
	r = read(p->fd, buf[0], BUF_SIZE);
	if (r < 0)
		fail(p, "read after writev");
	return calls(p, r, 6, 1, "writev of 6 bytes, then an event of");
}

/* --- watchdog: read gives an int, the seconds left; write pings --- */

/* Segments of two ints: one int, or one per segment. */
static const char *wdt_readv(struct probe *p)
{
	struct iovec iov[2] = { { buf[0], 4 }, { buf[1], 4 } };
	ssize_t r = readv(p->fd, iov, 2);

	if (r < 0)
		return errname(errno);
	return calls(p, r, 4, 8, "readv returned");
}

/*
 * "V" then "x": a write holding a 'V' arms magic close, one without
 * disarms it, and the last write decides.  Armed: the driver saw both
 * segments in one call.  A write of "x" leaves it disarmed, as found.
 */
static const char *wdt_writev(struct probe *p)
{
	struct iovec iov[2] = { { "V", 1 }, { "x", 1 } };
	int status = 0;
	ssize_t r = writev(p->fd, iov, 2);

	if (r < 0)
		return errname(errno);
	if (ioctl(p->fd, WDIOC_GETSTATUS, &status))
		fail(p, "WDIOC_GETSTATUS");
	put(p, "x", 1);
	return status & WDIOF_MAGICCLOSE ? "1 call" : "per seg";
}

/* --- skeleton: what is written comes back, a transfer at a time --- */

/* The node appears once the USB core has bound the driver. */
static const char *find_skel(void)
{
	static char node[64];
	glob_t g;
	int i;

	for (i = 0; i < 200; i++) {
		if (!glob("/dev/skel*", 0, NULL, &g)) {
			snprintf(node, sizeof(node), "%s", g.gl_pathv[0]);
			globfree(&g);
			return node;
		}
		usleep(50000);
	}
	return NULL;
}

/* A write, echoed by the gadget: ready once it is back (reads wait). */
static void skel_ready(struct probe *p)
{
	put(p, "kitprobe", 8);
	p->queued += 8;
}

/* Read back exactly what is still on its way: blocking reads. */
static void skel_drain(struct probe *p)
{
	ssize_t r;

	while (p->queued) {
		r = read(p->fd, buf[0], BUF_SIZE);
		if (r < 0)
			fail(p, "read while draining (%zu bytes left)",
			     p->queued);
		if (!r)
			odd(p, "EOF while draining (%zu bytes left)",
			    p->queued);
		took(p, r);
	}
}

/*
 * Two writes of 100 bytes come back as two short packets, and a read
 * returns what one packet brought.  A readv of 100 + 100 bytes is one
 * read (100 bytes), or one per segment (both packets, 200).
 */
static const char *skel_readv(struct probe *p)
{
	struct iovec iov[2] = { { buf[0], 100 }, { buf[1], 100 } };
	ssize_t r;

	memset(buf[2], 'a', 100);
	put(p, buf[2], 100);
	put(p, buf[2], 100);
	p->queued += 200;
	r = readv(p->fd, iov, 2);
	if (r < 0)
		return errname(errno);
	took(p, r);
	return calls(p, r, 100, 200, "readv returned");
}

/*
 * writev() of 100 + 200 + 300 bytes: one transfer comes back as a full
 * packet first (512 bytes at high speed), three as 100, 200 and 300.
 */
static const char *skel_writev(struct probe *p)
{
	struct iovec iov[3] = {
		{ buf[2], 100 }, { buf[2] + 100, 200 }, { buf[2] + 300, 300 },
	};
	ssize_t r;

	memset(buf[2], 'w', 600);
	r = writev(p->fd, iov, 3);
	if (r < 0)
		return errname(errno);
	p->queued += r;
	r = read(p->fd, buf[0], BUF_SIZE);
	if (r < 0)
		fail(p, "read after writev");
	took(p, r);
	if (r == 100)
		return "per seg";
	if (r >= 512)
		return "1 call";
	odd(p, "writev of 600 bytes came back as %zd first", r);
}

/* --- debugfs-demo and procfs-demo: the value file, a u32 --- */

static void attr_restore(struct probe *p)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, saved, saved_len) != (ssize_t)saved_len)
		fail(p, "writing the value back");
	close(fd);
}

/* "1", "2", "\n": one value, 12, or three of which the last is refused. */
static const char *attr_writev(struct probe *p)
{
	struct iovec iov[3] = { { "1", 1 }, { "2", 1 }, { "\n", 1 } };
	ssize_t r = writev(p->fd, iov, 3);
	const char *cell = NULL;

	if (r < 0)
		return errname(errno);
	r = pread(p->fd, buf[0], BUF_SIZE, 0);
	if (r == 3 && !memcmp(buf[0], "12\n", 3))
		cell = "1 call";
	if (r == 2 && !memcmp(buf[0], "2\n", 2))
		cell = "per seg";
	if (!cell)
		odd(p, "value reads \"%.*s\" after a writev of 12",
		    (int)(r > 0 ? r : 0), buf[0]);
	attr_restore(p);
	return cell;
}

/* debugfs counts the reads of value in stats. */
static long debugfs_reads(struct probe *p)
{
	int fd = open("/sys/kernel/debug/kit-debugfs/stats", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf[3], BUF_SIZE - 1);
	long reads;

	if (n < 0)
		fail(p, "reading stats");
	buf[3][n] = '\0';
	close(fd);
	if (sscanf(buf[3], "reads %ld", &reads) != 1)
		odd(p, "stats reads \"%s\"", buf[3]);
	return reads;
}

/* Three segments of 1 byte: stats counts one read, or three. */
static const char *debugfs_readv(struct probe *p)
{
	struct iovec iov[3] = { { buf[0], 1 }, { buf[1], 1 }, { buf[2], 1 } };
	long before = debugfs_reads(p);
	ssize_t r = readv(p->fd, iov, 3);

	if (r < 0)
		return errname(errno);
	return calls(p, debugfs_reads(p) - before, 1, 3,
		     "reads counted for a readv of 3 segments");
}

/*
 * procfs counts nothing, and a read of value at each segment's position
 * gives the same bytes as one read.  The table file (a seq_file of 27-byte
 * lines) shows the calls: a read returns at most the lines one page holds
 * (151 lines, 4077 bytes).  A readv of 4077 + 27 bytes is one read (4077),
 * or two (4104).
 */
static const char *procfs_readv(struct probe *p)
{
	int fd = open("/proc/kit-procfs/table", O_RDONLY | O_CLOEXEC);
	struct iovec iov[2] = { { buf[0], 4077 }, { buf[1], 27 } };
	ssize_t r;

	if (fd < 0)
		fail(p, "open /proc/kit-procfs/table");
	r = readv(fd, iov, 2);
	close(fd);
	if (r < 0)
		return errname(errno);
	return calls(p, r, 4077, 4104, "readv of the table returned");
}

static const struct driver drivers[] = {
	{
		.name = "misc-fifo", .path = "/dev/kitfifo",
		.wdata = "kitprobe",
		.ready = fifo_ready, .drain = fifo_drain,
		.readv = fifo_readv, .writev = fifo_writev,
	}, {
		/* One opener at a time, and opening starts it. */
		.name = "watchdog", .path = "/dev/kitwdt",
		.single_open = 1, .wdata = "x",
		.readv = wdt_readv, .writev = wdt_writev,
	}, {
		.name = "skeleton", .echo = 1, .wdata = "kitprobe",
		.ready = skel_ready, .drain = skel_drain,
		.readv = skel_readv, .writev = skel_writev,
	}, {
		.name = "debugfs-demo",
		.path = "/sys/kernel/debug/kit-debugfs/value",
		.readv = debugfs_readv, .writev = attr_writev,
	}, {
		.name = "procfs-demo", .path = "/proc/kit-procfs/value",
		.readv = procfs_readv, .writev = attr_writev,
	},
};

/* --- the probes: each returns its cell --- */

static const char *probe_read(struct probe *p)
{
	ssize_t r;

	ready(p);
	r = read(p->fd, buf[0], BUF_SIZE);
	took(p, r);
	return r == 0 ? "EOF" : outcome(r);
}

static const char *probe_write(struct probe *p)
{
	size_t len;
	const char *data = wdata(&len);
	ssize_t r = write(p->fd, data, len);

	if (r > 0 && drv->echo)
		p->queued += r;
	return r >= 0 && (size_t)r < len ? "short" : outcome(r);
}

static const char *probe_readv(struct probe *p)
{
	return drv->readv(p);
}

static const char *probe_writev(struct probe *p)
{
	return drv->writev(p);
}

/* Data is ready, but skeleton's echo may take a moment: EAGAIN retries. */
static const char *probe_nowait(struct probe *p)
{
	struct iovec iov = { buf[0], BUF_SIZE };
	ssize_t r;
	int i;

	ready(p);
	for (i = 0; i < NOWAIT_TRIES; i++) {
		r = preadv2(p->fd, &iov, 1, -1, RWF_NOWAIT);
		if (r >= 0 || errno != EAGAIN)
			break;
		usleep(50000);
	}
	took(p, r);
	return outcome(r);
}

/*
 * One read or write through io_uring, at the file position; a read is
 * READ_FIXED, into a registered buffer, if fixed.
 */
static const char *uring(struct probe *p, int write_op, int fixed)
{
	struct iovec reg = { NULL, BUF_SIZE };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	const char *data;
	size_t len;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret < 0)
		return errname(-ret);
	if (fixed) {
		/* Anonymous memory: 6.1 refuses buffers in a file mapping. */
		reg.iov_base = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (reg.iov_base == MAP_FAILED)
			fail(p, "mmap");
		ret = io_uring_register_buffers(&ring, &reg, 1);
		if (ret < 0) {
			errno = -ret;
			fail(p, "io_uring_register_buffers");
		}
	}
	sqe = io_uring_get_sqe(&ring);
	if (write_op) {
		data = wdata(&len);
		io_uring_prep_write(sqe, p->fd, data, len, -1);
	} else if (fixed) {
		ready(p);
		io_uring_prep_read_fixed(sqe, p->fd, reg.iov_base, BUF_SIZE,
					 -1, 0);
	} else {
		ready(p);
		io_uring_prep_read(sqe, p->fd, buf[0], BUF_SIZE, -1);
	}
	ret = io_uring_submit(&ring);
	if (ret != 1) {
		errno = ret < 0 ? -ret : 0;
		fail(p, "io_uring_submit gave %d", ret);
	}
	ret = io_uring_wait_cqe(&ring, &cqe);	/* a hang ends in "hang" */
	if (ret < 0) {
		errno = -ret;
		fail(p, "io_uring_wait_cqe");
	}
	ret = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	if (ret < 0)
		return errname(-ret);
	if (write_op && drv->echo)
		p->queued += ret;
	if (!write_op)
		took(p, ret);
	return "ok";
}

static const char *probe_uring_read(struct probe *p)
{
	return uring(p, 0, 0);
}

static const char *probe_uring_write(struct probe *p)
{
	return uring(p, 1, 0);
}

static const char *probe_uring_fixed(struct probe *p)
{
	return uring(p, 0, 1);
}

/* splice() or sendfile() from the file into a pipe. */
static const char *to_pipe(struct probe *p, int use_sendfile)
{
	int pipefd[2];
	ssize_t r;

	if (pipe(pipefd))
		fail(p, "pipe");
	ready(p);
	if (use_sendfile)
		r = sendfile(pipefd[1], p->fd, NULL, BUF_SIZE);
	else
		r = splice(p->fd, NULL, pipefd[1], NULL, BUF_SIZE, 0);
	took(p, r);
	close(pipefd[0]);
	close(pipefd[1]);
	return r == 0 ? "EOF" : outcome(r);
}

static const char *probe_splice(struct probe *p)
{
	return to_pipe(p, 0);
}

static const char *probe_sendfile(struct probe *p)
{
	return to_pipe(p, 1);
}

static const char *probe_poll(struct probe *p)
{
	static const struct { short bit; const char *name; } bits[] = {
		{ POLLIN, "IN" }, { POLLOUT, "OUT" }, { POLLPRI, "PRI" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
	};
	static char cell[CELL];
	struct pollfd pfd = { p->fd, POLLIN, 0 };
	size_t i;
	int r;

	/*
	 * Data is ready, but skeleton's echo may take a moment (and a read
	 * that an earlier probe left in flight may bring it in or not): wait
	 * until it is readable, then take the cell from a poll that waits
	 * for nothing.
	 */
	ready(p);
	poll(&pfd, 1, READY_WAIT_MS);
	pfd.events = POLLIN | POLLOUT | POLLPRI;
	r = poll(&pfd, 1, 0);
	if (r < 0)
		return errname(errno);
	if (!r)
		return "none";
	cell[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (pfd.revents & bits[i].bit)
			snprintf(cell + strlen(cell), CELL - strlen(cell),
				 "%s%s", cell[0] ? "," : "", bits[i].name);
	return cell;
}

static const char *probe_lseek(struct probe *p)
{
	return outcome(lseek(p->fd, 0, SEEK_SET));
}

static const struct {
	const char *name;
	const char *(*fn)(struct probe *p);
} probes[] = {
	{ "read", probe_read },
	{ "write", probe_write },
	{ "readv", probe_readv },
	{ "writev", probe_writev },
	{ "nowait", probe_nowait },
	{ "uring-r", probe_uring_read },
	{ "uring-w", probe_uring_write },
	{ "uring-fixed", probe_uring_fixed },
	{ "splice", probe_splice },
	{ "sendfile", probe_sendfile },
	{ "poll", probe_poll },
	{ "lseek", probe_lseek },
};

#define NPROBES ARRAY_SIZE(probes)

/* The child: one probe, its cell into the shared page. */
static void run_child(size_t i, char *cell)
{
	struct probe p = { .name = probes[i].name };
	const char *c;

	alarm(PROBE_TIMEOUT);
	p.fd = dev_open(&p);
	c = probes[i].fn(&p);
	snprintf(cell, CELL, "%s", c);
	if (drv->drain)
		drv->drain(&p);
	exit(0);
}

/* Run probe i in a child; 0 if it ran to its end. */
static int run_probe(size_t i, char *cell)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("kitprobe: fork");
		exit(1);
	}
	if (!pid)
		run_child(i, cell);
	if (waitpid(pid, &status, 0) != pid) {
		perror("kitprobe: waitpid");
		exit(1);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(cell, CELL, "hang");
	else if (WIFSIGNALED(status) && sigabbrev_np(WTERMSIG(status)))
		snprintf(cell, CELL, "%s", sigabbrev_np(WTERMSIG(status)));
	else
		snprintf(cell, CELL, "error");
	fprintf(stderr, "kitprobe: %s: %s: %s\n", drv->name, probes[i].name,
		cell);
	return 1;
}

/* Before the probes: the file, and what the attribute files hold. */
static void setup(void)
{
	ssize_t n;
	int fd;

	if (!path) {
		path = find_skel();
		if (!path)
			odd(NULL, "no /dev/skel* after 10 s");
	}
	if (drv->single_open)
		shared_fd = dev_open(NULL);
	if (!drv->wdata) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, saved, sizeof(saved));
		if (n <= 0)
			fail(NULL, "read %s", path);
		saved_len = n;
		close(fd);
	}
}

/* After them: a watchdog is stopped by a 'V' before the close. */
static void finish(void)
{
	if (drv->single_open) {
		if (write(shared_fd, "V", 1) != 1 || close(shared_fd))
			fail(NULL, "stopping the watchdog");
	}
}

static int bad_usage(void)
{
	fprintf(stderr, "usage: kitprobe DRIVER [PATH] | kitprobe --header\n");
	return 2;
}

int main(int argc, char **argv)
{
	char (*cells)[CELL];
	size_t i;
	int bad = 0;

	if (argc == 2 && !strcmp(argv[1], "--header")) {
		for (i = 0; i < NPROBES; i++)
			printf("%s%c", probes[i].name,
			       i + 1 < NPROBES ? '\t' : '\n');
		return 0;
	}
	if (argc < 2 || argc > 3)
		return bad_usage();
	for (i = 0; i < ARRAY_SIZE(drivers); i++)
		if (!strcmp(argv[1], drivers[i].name))
			drv = &drivers[i];
	if (!drv)
		return bad_usage();
	path = argc == 3 ? argv[2] : drv->path;

	/* The children write their cells here. */
	cells = mmap(NULL, NPROBES * CELL, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cells == MAP_FAILED) {
		perror("kitprobe: mmap");
		return 1;
	}
	setup();
	for (i = 0; i < NPROBES; i++)
		bad |= run_probe(i, cells[i]);
	finish();
	for (i = 0; i < NPROBES; i++)
		printf("%s%c", cells[i], i + 1 < NPROBES ? '\t' : '\n');
	return bad;
}
