// SPDX-License-Identifier: GPL-2.0
/*
 * kit_procfs - attribute files and a seq_file in procfs
 *
 * What this template teaches:
 * - files in /proc/kit-procfs/ described by struct proc_ops, procfs' own
 *   cut-down file_operations:
 *     value	a u32: reads "%u\n"; takes decimal, 0x hex or 0 octal;
 *     message	a 256-byte text buffer, read and written at any offset;
 *     table	read-only, a seq_file of 320 lines (8640 bytes), produced a
 *		line at a time, however the reader splits its reads;
 * - simple_read_from_buffer(), simple_write_to_buffer() and
 *   kstrtou32_from_user(), whose file position rules make partial reads
 *   and seeking work;
 * - one mutex that makes each read and write whole, taken only around
 *   kernel memory: a reader sees the value or message from before a write
 *   or after it, never part of one;
 * - bad input gets -EINVAL, -ERANGE or -EFAULT and changes nothing;
 * - removal: proc_ops has no .owner, and rmmod doesn't wait for open
 *   files.  procfs itself makes proc_remove() wait for calls in flight,
 *   and calls on a file still open afterwards get -EIO.
 *
 * This is the legacy form, with .proc_read and .proc_write, and seq_read()
 * for the table.  ../converted/ is the same driver converted to
 * .proc_read_iter and seq_read_iter(); diff the two.
 */

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define KIT_DEFAULT_VALUE	42
#define KIT_DEFAULT_MESSAGE	"Hello from kit_procfs\n"
#define KIT_MESSAGE_SIZE	256
#define KIT_TABLE_ROWS		320

/*
 * The longest value write we take.  kstrtou32_from_user() looks at the
 * first 34 bytes only: "0000...0001" with 40 zeros would silently become
 * 0.  No sensible u32 needs more than 32 bytes, so longer input is refused.
 */
#define KIT_VALUE_MAX_INPUT	32

/*
 * One instance, shared by every open file.  The handlers never touch user
 * memory while holding the mutex (reads format into a local buffer and
 * copy out after unlocking, writes copy in before locking), so a slow or
 * faulting user buffer holds up nobody else.
 */
struct kit_procfs {
	struct proc_dir_entry	*dir;		/* kit-procfs/ */
	struct mutex		lock;		/* protects the fields below */
	u32			value;
	char			message[KIT_MESSAGE_SIZE]; /* NUL past the end */
	size_t			message_len;	/* where the furthest write ended */
};

static struct kit_procfs kit_procfs;

/* LAB 5: under IOCB_NOWAIT, the lock is only tried */

/* LAB 5: let RWF_NOWAIT and io_uring reach the reads (IOCB_NOWAIT) */
/* Every file's data is our instance: see the creation of the files. */
static int kit_open(struct inode *inode, struct file *file)
{
	file->private_data = pde_data(inode);
	return 0;
}

/* LAB END */

/* value: a whole number per write, at any file position. */

/* LAB 5: read value as .proc_read_iter; no sleeping under IOCB_NOWAIT */
static ssize_t value_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	struct kit_procfs *kp = file->private_data;
	char tmp[12];		/* "4294967295\n" and a NUL */
	int len;

	mutex_lock(&kp->lock);
	len = scnprintf(tmp, sizeof(tmp), "%u\n", kp->value);
	mutex_unlock(&kp->lock);
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

/* LAB END */

static ssize_t value_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	struct kit_procfs *kp = file->private_data;
	u32 val;
	int ret;

	if (count > KIT_VALUE_MAX_INPUT)
		return -EINVAL;
	/* Base 0: "0x" means hex, a leading 0 octal; one '\n' may end it. */
	ret = kstrtou32_from_user(buf, count, 0, &val);
	if (ret)
		return ret;
	mutex_lock(&kp->lock);
	kp->value = val;
	mutex_unlock(&kp->lock);
	return count;
}

/* message: bytes at file positions, like a small file. */

/* Opening with O_TRUNC empties it, as for a file: "echo hi > message". */
static int message_open(struct inode *inode, struct file *file)
{
	struct kit_procfs *kp = pde_data(inode);

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&kp->lock);
		memset(kp->message, 0, sizeof(kp->message));
		kp->message_len = 0;
		mutex_unlock(&kp->lock);
	}
	return kit_open(inode, file);
}

/* LAB 5: read message as .proc_read_iter; no sleeping under IOCB_NOWAIT */
static ssize_t message_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct kit_procfs *kp = file->private_data;
	char tmp[KIT_MESSAGE_SIZE];
	size_t len;

	mutex_lock(&kp->lock);
	len = kp->message_len;
	memcpy(tmp, kp->message, len);
	mutex_unlock(&kp->lock);
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

/* LAB END */

/*
 * A write puts its bytes at the file position, as simple_write_to_buffer()
 * does, and one that crosses the end of the buffer is cut short there: the
 * caller learns from the count how much went in.  One that starts at or
 * past the end would get 0 from simple_write_to_buffer(), and a caller
 * that writes until everything is in (busybox's echo does) would loop
 * forever: it gets -ENOSPC instead, like a full disk.  A gap left by a
 * write past the end reads as NUL bytes, as in a sparse file.
 */
static ssize_t message_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct kit_procfs *kp = file->private_data;
	char tmp[KIT_MESSAGE_SIZE];
	loff_t pos = *ppos;
	ssize_t ret;

	if (count && pos >= KIT_MESSAGE_SIZE)
		return -ENOSPC;
	/* Into tmp at the same position first; only those bytes are used. */
	ret = simple_write_to_buffer(tmp, sizeof(tmp), &pos, buf, count);
	if (ret <= 0)
		return ret;
	mutex_lock(&kp->lock);
	memcpy(kp->message + *ppos, tmp + *ppos, ret);
	kp->message_len = max_t(size_t, kp->message_len, pos);
	mutex_unlock(&kp->lock);
	*ppos = pos;
	return ret;
}

/*
 * table: the seq_file iterator.  The position is the row number; seq_file
 * calls start() again for each read (and after each page it fills), so a
 * read at any position produces the lines from there on.
 */

static void *table_start(struct seq_file *m, loff_t *pos)
{
	return *pos < KIT_TABLE_ROWS ? pos : NULL;
}

static void *table_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return table_start(m, pos);
}

static void table_stop(struct seq_file *m, void *v)
{
}

static int table_show(struct seq_file *m, void *v)
{
	u32 row = *(loff_t *)v;

	seq_printf(m, "%4u %10u 0x%08x\n", row, row * row, row * row);
	return 0;
}

static const struct seq_operations table_seq_ops = {
	.start	= table_start,
	.next	= table_next,
	.stop	= table_stop,
	.show	= table_show,
};

static int table_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &table_seq_ops);
}

/*
 * No .owner in proc_ops: procfs brackets each call with its own use count
 * instead.  default_llseek() moves the position anywhere from 0 on;
 * SEEK_END counts from the inode size, which is 0 in procfs.  seq_lseek()
 * knows SEEK_SET and SEEK_CUR only.
 */
/* LAB 5: the three files read through iterators; the writes stay */
static const struct proc_ops value_ops = {
	.proc_open	= kit_open,
	.proc_read	= value_read,
	.proc_write	= value_write,
	.proc_lseek	= default_llseek,
};

static const struct proc_ops message_ops = {
	.proc_open	= message_open,
	.proc_read	= message_read,
	.proc_write	= message_write,
	.proc_lseek	= default_llseek,
};

static const struct proc_ops table_ops = {
	.proc_open	= table_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= seq_release,
};

/* LAB END */

static const struct kit_file {
	const char		*name;
	umode_t			mode;
	const struct proc_ops	*ops;
} kit_files[] = {
	{ "value",	0644, &value_ops },
	{ "message",	0644, &message_ops },
	{ "table",	0444, &table_ops },
};

static int __init kit_procfs_init(void)
{
	struct kit_procfs *kp = &kit_procfs;
	unsigned int i;

	mutex_init(&kp->lock);
	kp->value = KIT_DEFAULT_VALUE;
	kp->message_len = strlen(KIT_DEFAULT_MESSAGE);
	memcpy(kp->message, KIT_DEFAULT_MESSAGE, kp->message_len);

	kp->dir = proc_mkdir("kit-procfs", NULL);
	if (!kp->dir)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(kit_files); i++) {
		if (!proc_create_data(kit_files[i].name, kit_files[i].mode,
				      kp->dir, kit_files[i].ops, kp))
			goto err_remove;
	}
	return 0;

err_remove:
	proc_remove(kp->dir);
	return -ENOMEM;
}

/*
 * proc_remove() waits for calls in flight, releases files still open
 * (seq_release() for the table), and makes later calls on them fail with
 * -EIO: after it returns, procfs never calls into this module again.
 */
static void __exit kit_procfs_exit(void)
{
	proc_remove(kit_procfs.dir);
}

module_init(kit_procfs_init);
module_exit(kit_procfs_exit);

MODULE_DESCRIPTION("iterkit: attribute files and a seq_file in procfs");
MODULE_LICENSE("GPL");
