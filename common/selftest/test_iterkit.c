// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test of common/iterkit.h and common/compat.h, run at module load
 *
 * Like lib/test_*.c: loading the module runs every case, prints a KTAP
 * report to the kernel log and fails the load (-EINVAL) if a case failed.
 * A successful load leaves the module in; rmmod it afterwards.  While it
 * is in, debugfs has test_iterkit_splice: a file whose .splice_read is
 * compat.h's copy_splice_read, over a .read_iter that reads "iterkit splice
 * test\n".  kit-run splices from it, to see copy_splice_read work: that
 * takes a pipe, which a module can't make.
 *
 * The cases are tables.  Each one builds an iterator of one kind over a
 * small window of memory:
 *  - ITER_UBUF, and ITER_IOVEC of three segments (plus an empty one), in
 *    user memory mapped with vm_mmap() into the process that loads the
 *    module.  The page after the mapping is unmapped, so a window placed
 *    "hole" bytes before the end of the page faults part way;
 *  - ITER_KVEC and ITER_BVEC of three segments, in a kernel page.
 */
#define pr_fmt(fmt) fmt

#include <linux/bvec.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "iterkit.h"

#define WIN_OFF		256	/* where a window starts in its page */
#define NO_HOLE		(-1)
#define FILL		0xaa	/* what a window holds before a copy into it */

static const char pattern[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

enum iter_kind { UBUF, IOVEC, KVEC, BVEC };
static const char * const kind_name[] = { "ubuf", "iovec", "kvec", "bvec" };

/* ---- memory and iterators */

static unsigned long ubase;	/* one user page; the next one is unmapped */
static struct page *kpage;	/* the kernel page for KVEC and BVEC */

struct tbuf {
	enum iter_kind kind;
	size_t len;		/* bytes the iterator covers */
	size_t mapped;		/* of which are backed by memory */
	void __user *uaddr;	/* the window, for UBUF and IOVEC */
	char *kaddr;		/* the window, for KVEC and BVEC */
	struct iovec iov[4];
	struct kvec kvec[3];
	struct bio_vec bvec[3];
	struct iov_iter iter;
};

/* Build an iterator of @len bytes; @hole >= 0 puts them that far from an
 * unmapped page (user kinds only).
 */
static void tb_init(struct tbuf *t, enum iter_kind kind, unsigned int dir,
		    size_t len, int hole)
{
	size_t s0 = len / 3, s1 = len / 3, s2 = len - s0 - s1;
	unsigned long ustart = ubase + WIN_OFF;
	int i;

	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->len = len;
	t->mapped = len;
	if (hole >= 0) {
		ustart = ubase + PAGE_SIZE - hole;
		t->mapped = min_t(size_t, len, hole);
	}
	t->uaddr = (void __user *)ustart;
	t->kaddr = page_address(kpage) + WIN_OFF;

	switch (kind) {
	case UBUF:
		iov_iter_ubuf(&t->iter, dir, t->uaddr, len);
		break;
	case IOVEC:
		t->iov[0].iov_base = t->uaddr;
		t->iov[0].iov_len = s0;
		t->iov[1].iov_base = t->uaddr + s0;
		t->iov[1].iov_len = 0;
		t->iov[2].iov_base = t->uaddr + s0;
		t->iov[2].iov_len = s1;
		t->iov[3].iov_base = t->uaddr + s0 + s1;
		t->iov[3].iov_len = s2;
		iov_iter_init(&t->iter, dir, t->iov, 4, len);
		break;
	case KVEC:
		t->kvec[0].iov_base = t->kaddr;
		t->kvec[0].iov_len = s0;
		t->kvec[1].iov_base = t->kaddr + s0;
		t->kvec[1].iov_len = s1;
		t->kvec[2].iov_base = t->kaddr + s0 + s1;
		t->kvec[2].iov_len = s2;
		iov_iter_kvec(&t->iter, dir, t->kvec, 3, len);
		break;
	case BVEC:
		for (i = 0; i < 3; i++)
			t->bvec[i].bv_page = kpage;
		t->bvec[0].bv_offset = WIN_OFF;
		t->bvec[0].bv_len = s0;
		t->bvec[1].bv_offset = WIN_OFF + s0;
		t->bvec[1].bv_len = s1;
		t->bvec[2].bv_offset = WIN_OFF + s0 + s1;
		t->bvec[2].bv_len = s2;
		iov_iter_bvec(&t->iter, dir, t->bvec, 3, len);
		break;
	}
}

static bool tb_user(const struct tbuf *t)
{
	return t->kind == UBUF || t->kind == IOVEC;
}

/* Set the mapped part of the window: @src, or FILL if @src is NULL. */
static int tb_fill(struct tbuf *t, const char *src)
{
	char fill[64];

	if (!src) {
		memset(fill, FILL, sizeof(fill));
		src = fill;
	}
	if (!tb_user(t)) {
		memcpy(t->kaddr, src, t->mapped);
		return 0;
	}
	return copy_to_user(t->uaddr, src, t->mapped) ? -EFAULT : 0;
}

/* Read the mapped part of the window. */
static int tb_peek(struct tbuf *t, char *dst)
{
	if (!tb_user(t)) {
		memcpy(dst, t->kaddr, t->mapped);
		return 0;
	}
	return copy_from_user(dst, t->uaddr, t->mapped) ? -EFAULT : 0;
}

/* ---- reporting */

static unsigned int total, failed;
static bool this_ok;

#define CHECK(cond, fmt, ...)						\
do {									\
	if (!(cond)) {							\
		pr_info("# " fmt "\n", ##__VA_ARGS__);			\
		this_ok = false;					\
	}								\
} while (0)

/* One KTAP result line: "ok 7 group: kind name" (@kind may be NULL). */
static void report(const char *group, const char *kind, const char *name)
{
	const char *status = this_ok ? "ok" : "not ok";

	total++;
	if (!this_ok)
		failed++;
	if (kind)
		pr_info("%s %u %s: %s %s\n", status, total, group, kind, name);
	else
		pr_info("%s %u %s: %s\n", status, total, group, name);
}

/* ---- simple_copy_to_iter() and simple_copy_from_iter() */

struct copy_case {
	const char *name;
	enum iter_kind kind;
	size_t len;		/* of the iterator */
	int hole;		/* mapped bytes before a hole, or NO_HOLE */
	size_t avail;		/* size of the kernel buffer */
	loff_t pos;
	ssize_t ret;		/* with a hole: the most it may return */
};

static const struct copy_case copy_cases[] = {
	{ "whole buffer",		UBUF,  16, NO_HOLE, 16,  0,  16 },
	{ "short at the end",		UBUF,  16, NO_HOLE, 16, 10,   6 },
	{ "across segments",		IOVEC, 12, NO_HOLE, 20,  3,  12 },
	{ "segments, short",		IOVEC, 12, NO_HOLE,  8,  0,   8 },
	{ "whole buffer",		KVEC,  16, NO_HOLE, 16,  0,  16 },
	{ "short at the end",		BVEC,  16, NO_HOLE, 10,  2,   8 },
	{ "position past the iterator",	KVEC,   8, NO_HOLE, 40, 20,   8 },
	{ "position at the end",	KVEC,  16, NO_HOLE, 16, 16,   0 },
	{ "position past the end",	UBUF,  16, NO_HOLE, 16, 100,  0 },
	{ "negative position",		UBUF,  16, NO_HOLE, 16, -1, -EINVAL },
	{ "empty iterator",		BVEC,   0, NO_HOLE, 16,  0,   0 },
	{ "fault part way",		UBUF,  10, 4,       16,  0,   4 },
	{ "fault part way, segments",	IOVEC, 12, 6,       16,  1,   6 },
	{ "fault at once",		UBUF,  10, 0,       16,  0, -EFAULT },
};

static void run_copy_case(const struct copy_case *c, bool to_iter)
{
	char win[64], kbuf[64], want[64];
	loff_t want_pos, pos = c->pos;
	struct tbuf t;
	ssize_t ret;
	size_t done;

	this_ok = true;
	tb_init(&t, c->kind, to_iter ? ITER_DEST : ITER_SOURCE, c->len,
		c->hole);
	memset(kbuf, FILL, sizeof(kbuf));
	CHECK(!tb_fill(&t, to_iter ? NULL : pattern), "can't set up window");

	if (to_iter)
		ret = simple_copy_to_iter(pattern, &pos, c->avail, &t.iter);
	else
		ret = simple_copy_from_iter(kbuf, &pos, c->avail, &t.iter);

	/*
	 * Up to a fault, the architecture's user copy may stop short, but
	 * not at nothing (include/linux/uaccess.h): x86's copies up to the
	 * fault, arm64's may stop after a byte.  Whatever it did must add
	 * up: the position, the iterator and the bytes all say the same.
	 */
	if (c->hole != NO_HOLE && c->ret > 0)
		CHECK(ret > 0 && ret <= c->ret,
		      "returned %zd, expected 1 to %zd", ret, c->ret);
	else
		CHECK(ret == c->ret, "returned %zd, expected %zd", ret, c->ret);
	done = ret > 0 ? ret : 0;
	want_pos = c->pos + (loff_t)done;
	CHECK(pos == want_pos, "position %lld, expected %lld", pos, want_pos);
	CHECK(iov_iter_count(&t.iter) == c->len - done,
	      "%zu bytes left in the iterator, expected %zu",
	      iov_iter_count(&t.iter), c->len - done);

	/* Exactly the "done" bytes moved; nothing else was touched. */
	memset(want, FILL, sizeof(want));
	if (to_iter) {
		if (done)
			memcpy(want, pattern + c->pos, done);
		CHECK(!tb_peek(&t, win) && !memcmp(win, want, t.mapped),
		      "window holds the wrong bytes");
	} else {
		if (done)
			memcpy(want + c->pos, pattern, done);
		CHECK(!memcmp(kbuf, want, sizeof(kbuf)),
		      "buffer holds the wrong bytes");
	}
	report(to_iter ? "simple_copy_to_iter" : "simple_copy_from_iter",
	       kind_name[c->kind], c->name);
}

/* ---- get_iter() and put_iter() */

struct getput_case {
	const char *name;
	enum iter_kind kind;
	size_t len;
	int hole;
	bool put;
	bool fail;
};

/* The variable is a u64 for these cases. */
static const struct getput_case getput_cases[] = {
	{ "put",			UBUF,   8, NO_HOLE, true,  false },
	{ "put, iterator too short",	KVEC,   7, NO_HOLE, true,  true },
	{ "put, fault",			UBUF,   8, 3,       true,  true },
	{ "get across segments",	IOVEC,  8, NO_HOLE, false, false },
	{ "get, fault",			UBUF,   8, 5,       false, true },
};

static void run_getput_case(const struct getput_case *c)
{
	u64 val = 0x1122334455667788ULL, want;
	size_t left = c->fail ? c->len : c->len - sizeof(val);
	char win[64];
	struct tbuf t;
	int ret;

	this_ok = true;
	tb_init(&t, c->kind, c->put ? ITER_DEST : ITER_SOURCE, c->len,
		c->hole);
	CHECK(!tb_fill(&t, c->put ? NULL : pattern), "can't set up window");

	if (c->put) {
		ret = put_iter(val, &t.iter);
		CHECK(!tb_peek(&t, win), "can't read window");
		CHECK(c->fail || !memcmp(win, &val, sizeof(val)),
		      "window doesn't hold the value");
	} else {
		ret = get_iter(val, &t.iter);
		memcpy(&want, pattern, sizeof(want));
		CHECK(c->fail || val == want, "got %llx, expected %llx",
		      val, want);
	}
	CHECK(!ret == !c->fail, "returned %d", ret);
	CHECK(iov_iter_count(&t.iter) == left,
	      "%zu bytes left in the iterator, expected %zu",
	      iov_iter_count(&t.iter), left);
	report(c->put ? "put_iter" : "get_iter", kind_name[c->kind], c->name);
}

/* ---- vfs_read_iter() and vfs_write_iter() */

/* A legacy ->read()/->write() that records how it was called. */
static struct {
	int calls;
	int fail_call;		/* call 1, 2, ... returns fail_ret; 0: none */
	ssize_t fail_ret;	/* an errno, or a short count */
	loff_t *want_ppos;
	bool bad_ppos;
	size_t done;
	char sink[64];
} fake;

static ssize_t fake_step(size_t len, loff_t *ppos)
{
	ssize_t ret = len;

	if (ppos != fake.want_ppos)
		fake.bad_ppos = true;
	if (++fake.calls == fake.fail_call)
		ret = min_t(ssize_t, fake.fail_ret, len);
	if (fake.done + len > sizeof(fake.sink))
		ret = -ENOSPC;
	return ret;
}

static ssize_t fake_read(struct file *file, char __user *buf, size_t len,
			 loff_t *ppos)
{
	ssize_t ret = fake_step(len, ppos);

	if (ret <= 0)
		return ret;
	if (copy_to_user(buf, pattern + fake.done, ret))
		return -EFAULT;
	fake.done += ret;
	if (ppos)
		*ppos += ret;
	return ret;
}

static ssize_t fake_write(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	ssize_t ret = fake_step(len, ppos);

	if (ret <= 0)
		return ret;
	if (copy_from_user(fake.sink + fake.done, buf, ret))
		return -EFAULT;
	fake.done += ret;
	if (ppos)
		*ppos += ret;
	return ret;
}

FOPS_READ_ITER_HELPER(fake_read);
FOPS_WRITE_ITER_HELPER(fake_write);

struct vfs_case {
	const char *name;
	enum iter_kind kind;
	size_t len;
	size_t skip;		/* advance the iterator by this first */
	bool write;
	unsigned int f_flags;	/* O_NONBLOCK */
	bool stream;		/* FMODE_STREAM */
	int ki_flags;		/* IOCB_NOWAIT */
	int fail_call;		/* call 1, 2, ... returns fail_ret; 0: none */
	ssize_t fail_ret;
	ssize_t ret;
	int calls;
};

static const struct vfs_case vfs_cases[] = {
	{ "read", UBUF, 16, .ret = 16, .calls = 1 },
	{ "read, a call per segment", IOVEC, 12, .ret = 12,
	  .calls = 3 },
	{ "write, a call per segment", IOVEC, 12, .write = true,
	  .ret = 12, .calls = 3 },
	{ "read, short segment stops", IOVEC, 12, .fail_call = 2,
	  .fail_ret = 2, .ret = 6, .calls = 2 },
	{ "write, error after a segment", IOVEC, 12, .write = true,
	  .fail_call = 2, .fail_ret = -EIO, .ret = 4, .calls = 2 },
	{ "read, error at once", UBUF, 8, .fail_call = 1, .fail_ret = -EIO,
	  .ret = -EIO, .calls = 1 },
	{ "read refuses kernel memory", KVEC, 8, .ret = -EINVAL },
	{ "write refuses kernel memory", BVEC, 8, .write = true,
	  .ret = -EINVAL },
	{ "IOCB_NOWAIT without O_NONBLOCK", UBUF, 8,
	  .ki_flags = IOCB_NOWAIT, .ret = -EAGAIN },
	{ "IOCB_NOWAIT with O_NONBLOCK", UBUF, 8,
	  .f_flags = O_NONBLOCK, .ki_flags = IOCB_NOWAIT, .ret = 8,
	  .calls = 1 },
	{ "stream file gets no position", IOVEC, 12, .stream = true,
	  .ret = 12, .calls = 3 },
	{ "empty ubuf still calls", UBUF, 0, .ret = 0, .calls = 1 },
	{ "empty iovec doesn't call", IOVEC, 0, .ret = 0 },
	{ "advanced ubuf, one call", UBUF, 16, .skip = 5, .ret = 11,
	  .calls = 1 },
};

static void run_vfs_case(const struct vfs_case *c, struct file *file)
{
	size_t done = c->ret > 0 ? c->ret : 0;
	char win[64], want[64];
	struct kiocb iocb;
	struct tbuf t;
	ssize_t ret;

	this_ok = true;
	tb_init(&t, c->kind, c->write ? ITER_SOURCE : ITER_DEST, c->len,
		NO_HOLE);
	CHECK(!tb_fill(&t, c->write ? pattern : NULL), "can't set up window");
	iov_iter_advance(&t.iter, c->skip);

	file->f_flags = O_RDWR | c->f_flags;
	file->f_mode = FMODE_READ | FMODE_WRITE;
	if (c->stream)
		file->f_mode |= FMODE_STREAM;
	init_sync_kiocb(&iocb, file);
	iocb.ki_flags |= c->ki_flags;
	iocb.ki_pos = 100;

	memset(&fake, 0, sizeof(fake));
	fake.fail_call = c->fail_call;
	fake.fail_ret = c->fail_ret;
	fake.want_ppos = c->stream ? NULL : &iocb.ki_pos;

	if (c->write)
		ret = fake_write_iter(&iocb, &t.iter);
	else
		ret = fake_read_iter(&iocb, &t.iter);

	CHECK(ret == c->ret, "returned %zd, expected %zd", ret, c->ret);
	CHECK(fake.calls == c->calls, "%d calls, expected %d", fake.calls,
	      c->calls);
	CHECK(!fake.bad_ppos, "wrong position pointer passed");
	CHECK(iocb.ki_pos == 100 + (c->stream ? 0 : (loff_t)done),
	      "ki_pos %lld", iocb.ki_pos);
	CHECK(iov_iter_count(&t.iter) == c->len - c->skip - done,
	      "%zu bytes left in the iterator", iov_iter_count(&t.iter));

	/* The bytes moved are the first "done" of the other side's. */
	if (c->write) {
		CHECK(!memcmp(fake.sink, pattern + c->skip, done),
		      "driver got the wrong bytes");
	} else {
		memset(want, FILL, sizeof(want));
		memcpy(want + c->skip, pattern, done);
		CHECK(!tb_peek(&t, win) && !memcmp(win, want, t.mapped),
		      "reader got the wrong bytes");
	}
	report(c->write ? "vfs_write_iter" : "vfs_read_iter",
	       kind_name[c->kind], c->name);
}

/* ---- kstrto*_from_iter() */

enum ktype { ULL, LL, UL, L, UINT, INT, U64, S64, U32, S32, U16, S16, U8,
	     S8, BOOL };

struct kstrto_case {
	const char *name;
	enum iter_kind kind;
	enum ktype type;
	const char *in;
	int count;		/* bytes to parse; -1: all of @in */
	int hole;
	unsigned int base;
	int err;
	u64 val;		/* result, sign-extended for signed types */
};

#define ZEROS40	"0000000000000000000000000000000000000000"

static const struct kstrto_case kstrto_cases[] = {
	{ "u32",		UBUF,  U32, "42",	-1, NO_HOLE, 10, 0, 42 },
	{ "u32, newline",	UBUF,  U32, "42\n",	-1, NO_HOLE, 10, 0, 42 },
	{ "u32, leading space",	UBUF,  U32, " 12",	-1, NO_HOLE, 10, -EINVAL },
	{ "u32, trailing space", KVEC, U32, "12 ",	-1, NO_HOLE, 10, -EINVAL },
	{ "u32, empty",		UBUF,  U32, "",		-1, NO_HOLE, 10, -EINVAL },
	{ "u32, largest",	KVEC,  U32, "4294967295", -1, NO_HOLE, 10, 0,
	  4294967295ULL },
	{ "u32, overflow",	KVEC,  U32, "4294967296", -1, NO_HOLE, 10,
	  -ERANGE },
	{ "u32, signed",	UBUF,  U32, "-1",	-1, NO_HOLE, 10, -EINVAL },
	{ "u32, base 0 hex",	IOVEC, U32, "0x1F",	-1, NO_HOLE, 0, 0, 31 },
	{ "u32, base 16",	BVEC,  U32, "1f",	-1, NO_HOLE, 16, 0, 31 },
	{ "u32, junk",		UBUF,  U32, "12abc",	-1, NO_HOLE, 10, -EINVAL },
	{ "u32, count stops early", KVEC, U32, "12345",	3, NO_HOLE, 10, 0, 123 },
	{ "u32, too long is cut", UBUF, U32, ZEROS40 "7", -1, NO_HOLE, 10, 0,
	  0 },
	{ "u32, count past the iterator", KVEC, U32, "42", 8, NO_HOLE, 10,
	  -EFAULT },
	{ "u32, fault",		UBUF,  U32, "42",	-1, 1, 10, -EFAULT },
	{ "s32, smallest",	IOVEC, S32, "-2147483648", -1, NO_HOLE, 10, 0,
	  (u64)-2147483648LL },
	{ "s32, overflow",	KVEC,  S32, "2147483648", -1, NO_HOLE, 10,
	  -ERANGE },
	{ "u64, largest",	UBUF,  U64, "18446744073709551615", -1, NO_HOLE,
	  10, 0, U64_MAX },
	{ "s64, smallest",	KVEC,  S64, "-9223372036854775808", -1, NO_HOLE,
	  10, 0, (u64)S64_MIN },
	{ "ull, overflow",	UBUF,  ULL, "18446744073709551616", -1, NO_HOLE,
	  10, -ERANGE },
	{ "ll, negative",	BVEC,  LL, "-12\n",	-1, NO_HOLE, 10, 0, (u64)-12LL },
	{ "ul, octal",		UBUF,  UL, "0777",	-1, NO_HOLE, 0, 0, 511 },
	{ "l, newline only",	KVEC,  L, "\n",		-1, NO_HOLE, 10, -EINVAL },
	{ "uint",		IOVEC, UINT, "7",	-1, NO_HOLE, 10, 0, 7 },
	{ "int, negative",	UBUF,  INT, "-7",	-1, NO_HOLE, 10, 0, (u64)-7LL },
	{ "u16, largest",	BVEC,  U16, "65535",	-1, NO_HOLE, 10, 0, 65535 },
	{ "s16, smallest",	KVEC,  S16, "-32768",	-1, NO_HOLE, 10, 0,
	  (u64)-32768LL },
	{ "u8, newline",	UBUF,  U8, "255\n",	-1, NO_HOLE, 10, 0, 255 },
	{ "u8, overflow",	KVEC,  U8, "256",	-1, NO_HOLE, 10, -ERANGE },
	{ "s8, overflow",	UBUF,  S8, "-129",	-1, NO_HOLE, 10, -ERANGE },
	{ "bool, yes",		UBUF,  BOOL, "y\n",	-1, NO_HOLE, 0, 0, 1 },
	{ "bool, off",		KVEC,  BOOL, "off",	-1, NO_HOLE, 0, 0, 0 },
	{ "bool, junk",		UBUF,  BOOL, "x",	-1, NO_HOLE, 0, -EINVAL },
};

/* The parser's buffer, as in lib/kstrtox.c: what it reads at most + 1. */
static size_t kstrto_buf_size(enum ktype type)
{
	static const unsigned char bits[] = {
		[ULL] = 64, [LL] = 64, [UL] = BITS_PER_LONG,
		[L] = BITS_PER_LONG, [UINT] = 32, [INT] = 32, [U64] = 64,
		[S64] = 64, [U32] = 32, [S32] = 32, [U16] = 16, [S16] = 16,
		[U8] = 8, [S8] = 8,
	};

	return type == BOOL ? 4 : 1 + bits[type] + 1 + 1;
}

#define KSTRTO(fn, type)						\
do {									\
	type v = 0;							\
									\
	err = fn(&t.iter, count, c->base, &v);				\
	got = (u64)v;							\
} while (0)

static void run_kstrto_case(const struct kstrto_case *c)
{
	size_t len = strlen(c->in);
	size_t count = c->count < 0 ? len : c->count;
	size_t take = min(count, kstrto_buf_size(c->type) - 1);
	size_t left = c->err == -EFAULT ? len : len - take;
	struct tbuf t;
	bool b = false;
	u64 got = 0;
	int err = 0;

	this_ok = true;
	tb_init(&t, c->kind, ITER_SOURCE, len, c->hole);
	CHECK(!tb_fill(&t, c->in), "can't set up window");

	switch (c->type) {
	case ULL:
		KSTRTO(kstrtoull_from_iter, unsigned long long);
		break;
	case LL:
		KSTRTO(kstrtoll_from_iter, long long);
		break;
	case UL:
		KSTRTO(kstrtoul_from_iter, unsigned long);
		break;
	case L:
		KSTRTO(kstrtol_from_iter, long);
		break;
	case UINT:
		KSTRTO(kstrtouint_from_iter, unsigned int);
		break;
	case INT:
		KSTRTO(kstrtoint_from_iter, int);
		break;
	case U64:
		KSTRTO(kstrtou64_from_iter, u64);
		break;
	case S64:
		KSTRTO(kstrtos64_from_iter, s64);
		break;
	case U32:
		KSTRTO(kstrtou32_from_iter, u32);
		break;
	case S32:
		KSTRTO(kstrtos32_from_iter, s32);
		break;
	case U16:
		KSTRTO(kstrtou16_from_iter, u16);
		break;
	case S16:
		KSTRTO(kstrtos16_from_iter, s16);
		break;
	case U8:
		KSTRTO(kstrtou8_from_iter, u8);
		break;
	case S8:
		KSTRTO(kstrtos8_from_iter, s8);
		break;
	case BOOL:
		err = kstrtobool_from_iter(&t.iter, count, &b);
		got = b;
		break;
	}

	CHECK(err == c->err, "returned %d, expected %d", err, c->err);
	CHECK(err || got == c->val, "parsed %llu, expected %llu", got, c->val);
	CHECK(iov_iter_count(&t.iter) == left,
	      "%zu bytes left in the iterator, expected %zu",
	      iov_iter_count(&t.iter), left);
	report("kstrto_from_iter", kind_name[c->kind], c->name);
}

/* ---- compat.h: the modern names work on this kernel */

struct timer_test {
	struct timer_list timer;
	struct hrtimer hrtimer;
	struct completion done;
};

static void timer_test_fn(struct timer_list *t)
{
	struct timer_test *tt = timer_container_of(tt, t, timer);

	complete(&tt->done);
}

static enum hrtimer_restart hrtimer_test_fn(struct hrtimer *h)
{
	struct timer_test *tt = container_of(h, struct timer_test, hrtimer);

	complete(&tt->done);
	return HRTIMER_NORESTART;
}

/*
 * The timers live on this function's stack, so they are set up with the
 * _on_stack() variants and destroyed before it returns: a kernel with
 * DEBUG_OBJECTS_TIMERS checks that.
 */
static void run_compat_timers(void)
{
	struct timer_test tt;

	this_ok = true;
	init_completion(&tt.done);
	timer_setup_on_stack(&tt.timer, timer_test_fn, 0);
	mod_timer(&tt.timer, jiffies + 1);
	CHECK(wait_for_completion_timeout(&tt.done, 5 * HZ),
	      "timer didn't fire");
	timer_delete_sync(&tt.timer);
	CHECK(!timer_delete(&tt.timer), "idle timer reported pending");
	report("compat", NULL, "timer_delete, timer_container_of");

	/* The fallback of timer_shutdown_sync(), on every kernel. */
	this_ok = true;
	mod_timer(&tt.timer, jiffies + 60 * HZ);
	CHECK(timer_pending(&tt.timer), "timer not pending");
	CHECK(kit_timer_shutdown_sync(&tt.timer) == 1,
	      "a pending timer was not reported deleted");
	CHECK(!timer_pending(&tt.timer), "timer still pending");
	report("compat", NULL, "timer_shutdown_sync fallback");
	timer_shutdown_sync(&tt.timer);
	timer_destroy_on_stack(&tt.timer);

	this_ok = true;
	reinit_completion(&tt.done);
	hrtimer_setup_on_stack(&tt.hrtimer, hrtimer_test_fn, CLOCK_MONOTONIC,
			       HRTIMER_MODE_REL);
	hrtimer_start(&tt.hrtimer, ns_to_ktime(1000), HRTIMER_MODE_REL);
	CHECK(wait_for_completion_timeout(&tt.done, 5 * HZ),
	      "hrtimer didn't fire");
	hrtimer_cancel(&tt.hrtimer);
	destroy_hrtimer_on_stack(&tt.hrtimer);
	report("compat", NULL, "hrtimer_setup, hrtimer_setup_on_stack");
}

KIT_DEFINE_DEVNODE_MODE(test_iterkit, 0600);

static const char splice_text[] = "iterkit splice test\n";

static ssize_t splice_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return simple_copy_to_iter(splice_text, &iocb->ki_pos,
				   sizeof(splice_text) - 1, to);
}

/* .owner keeps rmmod away while kit-run has the file open. */
static const struct file_operations splice_fops = {
	.owner		= THIS_MODULE,
	.read_iter	= splice_read_iter,
	.splice_read	= copy_splice_read,
};

static struct dentry *splice_file;

static void run_compat_devices(void)
{
	struct class *cls;
	umode_t mode = 0;

	this_ok = true;
	cls = class_create("test_iterkit");
	CHECK(!IS_ERR(cls), "class_create: %ld", PTR_ERR(cls));
	if (!IS_ERR(cls)) {
		cls->devnode = test_iterkit_devnode;
		CHECK(!cls->devnode(NULL, &mode) && mode == 0600,
		      "devnode gave mode %o", mode);
		class_destroy(cls);
	}
	report("compat", NULL, "class_create, devnode");
}

/* ---- the module */

static int __init test_iterkit_init(void)
{
	struct file *file;
	size_t i;
	int ret = -ENOMEM;

	/* insmod's process context: give it a page and a hole after it. */
	ubase = vm_mmap(NULL, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(ubase))
		return (int)ubase;
	vm_munmap(ubase + PAGE_SIZE, PAGE_SIZE);

	kpage = alloc_page(GFP_KERNEL);
	if (!kpage)
		goto out_unmap;
	/* vfs_*_iter() only look at f_flags and f_mode of the file. */
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		goto out_page;

	pr_info("KTAP version 1\n");
	pr_info("1..%zu\n", 2 * ARRAY_SIZE(copy_cases) +
		ARRAY_SIZE(getput_cases) + ARRAY_SIZE(vfs_cases) +
		ARRAY_SIZE(kstrto_cases) + 4);

	for (i = 0; i < ARRAY_SIZE(copy_cases); i++)
		run_copy_case(&copy_cases[i], true);
	for (i = 0; i < ARRAY_SIZE(copy_cases); i++)
		run_copy_case(&copy_cases[i], false);
	for (i = 0; i < ARRAY_SIZE(getput_cases); i++)
		run_getput_case(&getput_cases[i]);
	for (i = 0; i < ARRAY_SIZE(vfs_cases); i++)
		run_vfs_case(&vfs_cases[i], file);
	for (i = 0; i < ARRAY_SIZE(kstrto_cases); i++)
		run_kstrto_case(&kstrto_cases[i]);
	run_compat_timers();
	run_compat_devices();

	pr_info("# test_iterkit: %u passed, %u failed\n", total - failed,
		failed);
	ret = failed ? -EINVAL : 0;
	if (!ret)
		splice_file = debugfs_create_file_unsafe("test_iterkit_splice",
							 0400, NULL, NULL,
							 &splice_fops);

	kfree(file);
out_page:
	__free_page(kpage);
out_unmap:
	vm_munmap(ubase, PAGE_SIZE);
	return ret;
}
module_init(test_iterkit_init);

static void __exit test_iterkit_exit(void)
{
	debugfs_remove(splice_file);
}
module_exit(test_iterkit_exit);

MODULE_DESCRIPTION("Self-test of the iterkit helpers");
MODULE_LICENSE("GPL");
