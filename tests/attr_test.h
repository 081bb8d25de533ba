/* SPDX-License-Identifier: GPL-2.0 */
/*
 * attr_test.h - what debugfs-demo.c and procfs-demo.c test alike
 *
 * Both drivers have a "value" file (a u32, written as by
 * kstrtou32_from_user()) and a "message" file (256 bytes, read and written
 * at the file position), in one directory.  This header has the helpers
 * for reading and writing them, and the bodies of the tests both programs
 * run; each program defines the KIT_TEST()s, which start with its own
 * reset to the defaults and then call attr_*().
 *
 *	#define ATTR_DIR	"/proc/kit-procfs"	(the directory)
 *	#include "attr_test.h"			(instead of kit_test.h)
 */
#ifndef ATTR_TEST_H
#define ATTR_TEST_H

#include "kit_test.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#ifndef ATTR_DIR
#error "define ATTR_DIR, the directory of value and message, first"
#endif

#define DEFAULT_VALUE	42
#define MESSAGE_SIZE	256
#define VALUE_MAX_INPUT	32	/* longer value writes get EINVAL */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char buf[1 << 17];

/* --- helpers --- */

/* s[0..len) as a C string literal, for messages: one line of KTAP. */
static const char *esc(const char *s, size_t len)
{
	static char out[4][120];
	static int k;
	char *o = out[k++ % 4], *p = o;
	size_t i;

	for (i = 0; i < len && p < o + sizeof(out[0]) - 8; i++) {
		unsigned char c = s[i];

		if (c == '\n')
			p += sprintf(p, "\\n");
		else if (c < ' ' || c > '~' || c == '"' || c == '\\')
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = c;
	}
	if (i < len)
		p += sprintf(p, "...");
	*p = '\0';
	return o;
}

static int open_file(const char *name, int flags)
{
	char path[128];

	snprintf(path, sizeof(path), ATTR_DIR "/%s", name);
	return KIT_ASSERT_OK(open(path, flags));
}

/* The whole content, read with one pread() from 0; NUL-terminated. */
static size_t get(const char *name, char *out, size_t size)
{
	int fd = open_file(name, O_RDONLY);
	ssize_t n = KIT_ASSERT_OK(pread(fd, out, size - 1, 0));

	close(fd);
	out[n] = '\0';
	return n;
}

static void put(const char *name, const char *s)
{
	int fd = open_file(name, O_WRONLY);

	KIT_ASSERT_EQ(write(fd, s, strlen(s)), (long long)strlen(s));
	close(fd);
}

static unsigned long long get_value(void)
{
	char v[64], *end;
	unsigned long long val;

	get("value", v, sizeof(v));
	val = strtoull(v, &end, 10);
	if (end == v || strcmp(end, "\n"))
		kit_fail("value reads \"%s\"", esc(v, strlen(v)));
	return val;
}

static void expect_content(const char *name, const char *want, size_t len)
{
	char got[MESSAGE_SIZE + 64];
	size_t n;

	KIT_ASSERT(len < sizeof(got));
	n = get(name, got, sizeof(got));
	if (n != len || memcmp(got, want, len))
		kit_fail("%s reads \"%s\", not \"%s\"", name, esc(got, n),
			 esc(want, len));
}

/*
 * Reading from the start with reads of chunk bytes, and with pread()s from
 * every offset up to past the end, gives back exactly want[0..len).  A
 * read may return less than asked for (a seq_file returns what one page
 * holds), never more, and 0 only at the end.
 */
static void check_reads(const char *name, const char *want, size_t len)
{
	static const size_t chunks[] = { 1, 2, 7, 4096 };
	size_t i, off, got;
	ssize_t n;
	int fd = open_file(name, O_RDONLY);

	KIT_ASSERT(len < sizeof(buf));

	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		KIT_ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
		got = 0;
		do {
			KIT_ASSERT(got + chunks[i] <= sizeof(buf));
			n = KIT_ASSERT_OK(read(fd, buf + got, chunks[i]));
			KIT_ASSERT(n <= (ssize_t)chunks[i]);
			got += n;
		} while (n > 0);
		KIT_ASSERT_EQ(got, len);
		if (memcmp(buf, want, len))
			kit_fail("%s: reads of %zu bytes differ", name, chunks[i]);
		KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), (long long)len);
	}
	for (off = 0; off <= len + 2; off++) {
		got = off;
		do {
			n = KIT_ASSERT_OK(pread(fd, buf, sizeof(buf), got));
			KIT_ASSERT(!n || got + n <= len);
			if (memcmp(buf, want + got, n))
				kit_fail("%s: pread at %zu differs", name, got);
			got += n;
		} while (n > 0);
		KIT_ASSERT(got >= len);
	}
	close(fd);
}

/* lseek as default_llseek() defines it: the inode size is 0. */
static void check_lseek(const char *name, const char *want, size_t len)
{
	int fd = open_file(name, O_RDONLY);

	KIT_ASSERT(len >= 3);
	KIT_ASSERT_EQ(lseek(fd, 1, SEEK_SET), 1);
	KIT_ASSERT_EQ(read(fd, buf, 1), 1);
	KIT_ASSERT_EQ(buf[0], want[1]);
	KIT_ASSERT_EQ(lseek(fd, 1, SEEK_CUR), 3);
	KIT_ASSERT_EQ(read(fd, buf, sizeof(buf)), (long long)len - 3);
	KIT_ASSERT(!memcmp(buf, want + 3, len - 3));
	KIT_ASSERT_EQ(lseek(fd, -2, SEEK_CUR), (long long)len - 2);
	KIT_ASSERT_EQ(read(fd, buf, sizeof(buf)), 2);
	KIT_ASSERT(!memcmp(buf, want + len - 2, 2));
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_END), 0);
	KIT_ASSERT_EQ(lseek(fd, 2, SEEK_END), 2);
	KIT_ASSERT_EQ(read(fd, buf, 1), 1);
	KIT_ASSERT_EQ(buf[0], want[2]);
	KIT_ASSERT_ERRNO(lseek(fd, -1, SEEK_SET), EINVAL);
	KIT_ASSERT_ERRNO(lseek(fd, -1, SEEK_END), EINVAL);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 3);	/* unchanged */
	KIT_ASSERT_EQ(lseek(fd, len + 100, SEEK_SET), (long long)len + 100);
	KIT_ASSERT_EQ(read(fd, buf, sizeof(buf)), 0);
	close(fd);
}

/* A message of len bytes: printable, different at every position. */
static void fill_message(char *m, size_t len, char base)
{
	size_t i;

	for (i = 0; i < len; i++)
		m[i] = base + i % 26;
}

static void set_message(const char *m, size_t len)
{
	int fd = open_file("message", O_WRONLY | O_TRUNC);

	KIT_ASSERT_EQ(write(fd, m, len), (long long)len);
	close(fd);
}

/* --- reading: small reads, every offset, lseek --- */

static void attr_value_reads(void)
{
	check_reads("value", "42\n", 3);
	put("value", "4294967295");
	check_reads("value", "4294967295\n", 11);
}

static void attr_message_reads(const char *default_message)
{
	char m[MESSAGE_SIZE];

	check_reads("message", default_message, strlen(default_message));
	fill_message(m, sizeof(m), 'a');
	set_message(m, sizeof(m));
	check_reads("message", m, sizeof(m));
}

static void attr_lseek(void)
{
	char m[100];

	check_lseek("value", "42\n", 3);
	fill_message(m, sizeof(m), 'A');
	set_message(m, sizeof(m));
	check_lseek("message", m, sizeof(m));
}

/* --- value: what a write takes --- */

static const struct value_case {
	const char *in;
	int err;			/* 0: accepted */
	unsigned long long val;		/* the value then */
} value_cases[] = {
	{ "12", 0, 12 },
	{ "12\n", 0, 12 },
	{ "0", 0, 0 },
	{ "+7", 0, 7 },
	{ "0x10", 0, 16 },
	{ "0X1f\n", 0, 31 },
	{ "010", 0, 8 },
	{ "4294967295", 0, 4294967295ULL },
	{ "4294967295\n", 0, 4294967295ULL },
	{ "0xffffffff", 0, 4294967295ULL },
	{ "037777777777", 0, 4294967295ULL },
	{ "00000000000000000000000000000012", 0, 10 },	/* 32 bytes, octal */
	{ " 12", EINVAL, 0 },
	{ "12 ", EINVAL, 0 },
	{ "\n12", EINVAL, 0 },
	{ "12\n\n", EINVAL, 0 },
	{ "-1", EINVAL, 0 },
	{ "", EINVAL, 0 },
	{ "\n", EINVAL, 0 },
	{ "abc", EINVAL, 0 },
	{ "1 2", EINVAL, 0 },
	{ "12abc", EINVAL, 0 },
	{ "0x", EINVAL, 0 },
	{ "08", EINVAL, 0 },
	{ "0xg", EINVAL, 0 },
	{ "000000000000000000000000000000012", EINVAL, 0 },	/* 33 bytes */
	{ "4294967296", ERANGE, 0 },
	{ "99999999999", ERANGE, 0 },
	{ "0x100000000", ERANGE, 0 },
	{ "040000000000", ERANGE, 0 },
	{ "18446744073709551616", ERANGE, 0 },
};

#define SENTINEL 123456789ULL

/* Write in to value (len bytes); check the result and the value after. */
static void value_case(const char *in, size_t len, int err,
		       unsigned long long val)
{
	int fd = open_file("value", O_WRONLY);
	ssize_t n;

	put("value", "123456789");
	errno = 0;
	n = write(fd, in, len);
	close(fd);
	if (err && (n != -1 || errno != err))
		kit_fail("write(\"%s\", %zu): %zd (%s), expected %s",
			 esc(in, len), len, n, strerror(errno), strerror(err));
	if (!err && n != (ssize_t)len)
		kit_fail("write(\"%s\", %zu): %zd (%s)", esc(in, len), len, n,
			 strerror(errno));
	if (get_value() != (err ? SENTINEL : val))
		kit_fail("\"%s\": value is %llu", esc(in, len), get_value());
}

static void attr_value_write_table(void)
{
	static const char nul_in[] = { '1', '2', '\0', '3', '4' };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(value_cases); i++)
		value_case(value_cases[i].in, strlen(value_cases[i].in),
			   value_cases[i].err, value_cases[i].val);
	/* A NUL ends the string, as for kstrtou32_from_user(). */
	value_case(nul_in, sizeof(nul_in), 0, 12);
}

/* 64 KiB of digits: longer than any u32 may be written, so EINVAL. */
static void attr_value_write_64k_digits(void)
{
	char *big = malloc(65536);

	KIT_ASSERT(big);
	memset(big, '1', 65536);
	value_case(big, 65536, EINVAL, 0);
	memset(big, '0', 65536);
	big[65535] = '7';
	value_case(big, 65536, EINVAL, 0);
	/* The longest accepted: VALUE_MAX_INPUT bytes, leading zeros. */
	value_case(big + 65536 - VALUE_MAX_INPUT, VALUE_MAX_INPUT, 0, 7);
	free(big);
}

/* Each write is a whole value: the file position plays no part. */
static void attr_value_write_ignores_position(void)
{
	int fd = open_file("value", O_RDWR);

	KIT_ASSERT_EQ(pwrite(fd, "5", 1, 100), 1);
	KIT_ASSERT_EQ(get_value(), 5);
	KIT_ASSERT_EQ(write(fd, "6\n", 2), 2);
	KIT_ASSERT_EQ(write(fd, "7\n", 2), 2);
	KIT_ASSERT_EQ(get_value(), 7);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
}

/* --- message: a small file of 256 bytes --- */

static void attr_message_positions(void)
{
	char m[300], want[MESSAGE_SIZE];
	int fd;

	fd = open_file("message", O_RDWR | O_TRUNC);
	expect_content("message", "", 0);
	KIT_ASSERT_EQ(write(fd, "hello world", 11), 11);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 11);
	expect_content("message", "hello world", 11);
	KIT_ASSERT_EQ(pwrite(fd, "J", 1, 0), 1);
	KIT_ASSERT_EQ(write(fd, "!!", 2), 2);		/* at 11 */
	expect_content("message", "Jello world!!", 13);
	/* A gap reads as NULs. */
	KIT_ASSERT_EQ(pwrite(fd, "x", 1, 20), 1);
	expect_content("message", "Jello world!!\0\0\0\0\0\0\0x", 21);
	close(fd);

	/* Without O_TRUNC, the message stays; a write changes its part. */
	fd = open_file("message", O_WRONLY);
	KIT_ASSERT_EQ(write(fd, "Y", 1), 1);
	close(fd);
	expect_content("message", "Yello world!!\0\0\0\0\0\0\0x", 21);

	/* A write crossing the end is cut short; past the end: ENOSPC. */
	fill_message(m, sizeof(m), 'a');
	fd = open_file("message", O_RDWR | O_TRUNC);
	KIT_ASSERT_EQ(write(fd, m, sizeof(m)), MESSAGE_SIZE);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), MESSAGE_SIZE);
	KIT_ASSERT_ERRNO(write(fd, m, 1), ENOSPC);
	KIT_ASSERT_ERRNO(pwrite(fd, m, 10, MESSAGE_SIZE), ENOSPC);
	KIT_ASSERT_ERRNO(pwrite(fd, m, 1, 100000), ENOSPC);
	KIT_ASSERT_EQ(pwrite(fd, m, 0, MESSAGE_SIZE), 0);
	KIT_ASSERT_EQ(pwrite(fd, "0123456789", 10, 250), 6);
	close(fd);
	memcpy(want, m, MESSAGE_SIZE);
	memcpy(want + 250, "012345", 6);
	expect_content("message", want, MESSAGE_SIZE);
}

/* --- bad user pointers: EFAULT, nothing changes --- */

/* value and message; the caller goes on with its other files. */
static void attr_efault(void)
{
	char *edge = kit_edge_buf(4), want[8];
	ssize_t n, r;
	int fd;

	put("value", "77");
	set_message("abcdefgh", 8);

	fd = open_file("value", O_RDWR);
	KIT_ASSERT_ERRNO(write(fd, kit_bad_ptr(), 3), EFAULT);
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), 10), EFAULT);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
	KIT_ASSERT_EQ(get_value(), 77);

	fd = open_file("message", O_RDWR);
	KIT_ASSERT_ERRNO(write(fd, kit_bad_ptr(), 5), EFAULT);
	KIT_ASSERT_ERRNO(pwrite(fd, kit_bad_ptr(), 5, 3), EFAULT);
	KIT_ASSERT_ERRNO(read(fd, kit_bad_ptr(), 10), EFAULT);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), 0);
	/*
	 * Partly bad: what is copied before the fault is written, then it
	 * stops.  How much is the architecture's: x86 copies up to the
	 * fault (4 bytes), arm64 may stop after one, as the kernel's user
	 * copies may (include/linux/uaccess.h), but never at none.  The
	 * position and the contents say the same as the count.
	 */
	memcpy(edge, "WXYZ", 4);
	n = KIT_ASSERT_OK(write(fd, edge, 8));
	r = KIT_ASSERT_OK(pread(fd, edge, 8, 0));
	/* Before the checks, so that a failing one has the counts above it. */
	kit_diag("8 bytes, 4 before a fault: write copied %zd, read %zd",
		 n, r);
	KIT_ASSERT(n >= 1 && n <= 4);
	KIT_ASSERT_EQ(lseek(fd, 0, SEEK_CUR), n);
	memcpy(want, "abcdefgh", 8);
	memcpy(want, "WXYZ", n);
	KIT_ASSERT(r >= 1 && r <= 4);
	KIT_ASSERT(!memcmp(edge, want, r));
	close(fd);
	expect_content("message", want, 8);
}

#ifdef KIT_TEST_HOOKS
/*
 * --- a contended lock: the driver's test hook holds it ---
 *
 * The kit's build adds test hooks to its own drivers (tests/hooks/), and a
 * test program that defines KIT_TEST_HOOKS before it includes this header
 * gets the tests that use them.  No template holds the hooks, and
 * scripts/new-driver leaves these tests out of the test program it makes.
 * The directory's test-hooks file takes "hold", which holds the driver's
 * lock until "release".
 */

#define ATTR_HOOKS	"test-hooks"	/* the kit's test hooks' file */

/* A thread that runs fn() and says when it is done. */
struct attr_thread {
	pthread_t id;
	pid_t tid;
	int done;
	void (*fn)(void);
};

static void *attr_thread_main(void *arg)
{
	struct attr_thread *t = arg;

	__atomic_store_n(&t->tid, gettid(), __ATOMIC_SEQ_CST);
	t->fn();
	__atomic_store_n(&t->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* Start fn() in a thread; come back when it sleeps in system call nr. */
static void attr_thread_start(struct attr_thread *t, void (*fn)(void),
			      long nr)
{
	int err;

	*t = (struct attr_thread){ .fn = fn };
	err = pthread_create(&t->id, NULL, attr_thread_main, t);
	if (err)
		kit_fail("pthread_create: %s", strerror(err));
	while (!__atomic_load_n(&t->tid, __ATOMIC_SEQ_CST))
		usleep(1000);
	kit_wait_blocked(t->tid, nr);
}

static int attr_thread_done(struct attr_thread *t)
{
	return __atomic_load_n(&t->done, __ATOMIC_SEQ_CST);
}

static void write_hold(void)
{
	int fd = open_file(ATTR_HOOKS, O_WRONLY);

	/* It returns at "release", or ETIMEDOUT if a call waited for it. */
	if (write(fd, "hold", 4) != 4)
		kit_fail("hold: %s (a call that should not wait did?)",
			 strerror(errno));
	close(fd);
}

static struct attr_thread holder;

/* The driver's lock is taken, by a write that sleeps until release_lock(). */
static void hold_lock(void)
{
	attr_thread_start(&holder, write_hold, SYS_write);
}

static void release_lock(void)
{
	put(ATTR_HOOKS, "release");
	pthread_join(holder.id, NULL);
}

static char blocked_buf[64];
static ssize_t blocked_ret;

static void read_value(void)
{
	int fd = open_file("value", O_RDONLY);

	blocked_ret = pread(fd, blocked_buf, sizeof(blocked_buf), 0);
	close(fd);
}

/*
 * While the lock is held, RWF_NOWAIT reads of value and message get EAGAIN
 * in the converted form, where they honour IOCB_NOWAIT (EOPNOTSUPP in the
 * legacy one: no FMODE_NOWAIT), and a plain read of value waits for the
 * lock, then reads the value.
 */
static void attr_contended_reads(void)
{
	struct attr_thread reader;
	char v[64];
	struct iovec in = { v, sizeof(v) };
	int err = kit_form_converted() ? EAGAIN : EOPNOTSUPP;
	int vfd = open_file("value", O_RDONLY);
	int mfd = open_file("message", O_RDONLY);

	hold_lock();
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
				     preadv2(vfd, &in, 1, 0, RWF_NOWAIT)), err);
	KIT_ASSERT_ERRNO(KIT_NO_WAIT(SYS_preadv2,
				     preadv2(mfd, &in, 1, 0, RWF_NOWAIT)), err);
	attr_thread_start(&reader, read_value, SYS_pread64);
	usleep(200000);
	KIT_ASSERT(!attr_thread_done(&reader));
	release_lock();
	pthread_join(reader.id, NULL);
	KIT_ASSERT_EQ(blocked_ret, 3);
	KIT_ASSERT(!memcmp(blocked_buf, "42\n", 3));
	/* Uncontended, RWF_NOWAIT reads go ahead. */
	if (kit_form_converted())
		KIT_ASSERT_EQ(preadv2(vfd, &in, 1, 0, RWF_NOWAIT), 3);
	close(vfd);
	close(mfd);
}
#endif /* KIT_TEST_HOOKS */

/* --- concurrency: readers never see a torn value or message --- */

#define TORN_LOOPS	3000
#define TORN_LEN	200
static const char *const torn_values[2] = { "1111111111\n", "3333333333\n" };

static void *torn_writer(void *arg)
{
	long id = (long)arg;
	char m[TORN_LEN];
	int vfd = open_file("value", O_WRONLY);
	int mfd = open_file("message", O_WRONLY);
	int i;

	for (i = 0; i < TORN_LOOPS; i++) {
		int k = (i + id) & 1;

		KIT_ASSERT_EQ(write(vfd, torn_values[k], 11), 11);
		memset(m, k ? 'b' : 'a', sizeof(m));
		KIT_ASSERT_EQ(pwrite(mfd, m, sizeof(m), 0), TORN_LEN);
	}
	close(vfd);
	close(mfd);
	return NULL;
}

static void *torn_reader(void *arg)
{
	char v[32], m[MESSAGE_SIZE];
	int vfd = open_file("value", O_RDONLY);
	int mfd = open_file("message", O_RDONLY);
	ssize_t n;
	int i, j;

	(void)arg;
	for (i = 0; i < TORN_LOOPS; i++) {
		n = KIT_ASSERT_OK(pread(vfd, v, sizeof(v), 0));
		if (n != 11 || (memcmp(v, torn_values[0], 11) &&
				memcmp(v, torn_values[1], 11)))
			kit_fail("torn value: \"%s\"", esc(v, n));
		n = KIT_ASSERT_OK(pread(mfd, m, sizeof(m), 0));
		KIT_ASSERT_EQ(n, TORN_LEN);
		for (j = 1; j < n; j++)
			if (m[j] != m[0])
				kit_fail("torn message: byte %d is %c, byte 0 %c",
					 j, m[j], m[0]);
	}
	close(vfd);
	close(mfd);
	return NULL;
}

static void attr_concurrent_readers_writers(void)
{
	struct kit_threads writers, readers;
	char m[TORN_LEN];

	put("value", "1111111111");
	memset(m, 'a', sizeof(m));
	set_message(m, sizeof(m));
	kit_threads_start(&writers, 2, torn_writer);
	kit_threads_start(&readers, 3, torn_reader);
	kit_threads_join(&writers);
	kit_threads_join(&readers);
}

#endif /* ATTR_TEST_H */
