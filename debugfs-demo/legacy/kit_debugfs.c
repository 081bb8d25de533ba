// SPDX-License-Identifier: GPL-2.0
/*
 * kit_debugfs - attribute files in debugfs
 *
 * What this template teaches:
 * - small attribute files, the most common users of .read/.write in the
 *   kernel, here in /sys/kernel/debug/kit-debugfs/:
 *     value	a u32: reads "%u\n"; takes decimal, 0x hex or 0 octal;
 *     message	a 256-byte text buffer, read and written at any offset;
 *     stats	read-only counters of reads, writes and failed writes;
 *     trigger	write-only: "reset" restores the defaults;
 * - the helpers such files are made of: simple_read_from_buffer(),
 *   simple_write_to_buffer() and kstrtou32_from_user(), whose file
 *   position rules make partial reads and seeking work;
 * - one mutex that makes each read and write whole, taken only around
 *   kernel memory: a reader sees the value or message from before a write
 *   or after it, never part of one;
 * - bad input gets -EINVAL, -ERANGE or -EFAULT and changes nothing.
 *
 * This is the legacy form, with .read and .write, created with
 * debugfs_create_file(): debugfs puts a proxy in front of our fops that
 * holds off debugfs_remove() while a handler runs.  ../converted/ is the
 * same driver converted to .read_iter and .write_iter; diff the two.
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define KIT_DEFAULT_VALUE	42
#define KIT_DEFAULT_MESSAGE	"Hello from kit_debugfs\n"
#define KIT_MESSAGE_SIZE	256

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
 * faulting user buffer holds up nobody else.  The counters are atomics:
 * each is exact, and they need no lock.
 */
struct kit_debugfs {
	struct dentry	*dir;		/* kit-debugfs/ */
	struct mutex	lock;		/* protects the three fields below */
	u32		value;
	char		message[KIT_MESSAGE_SIZE];	/* NUL past the end */
	size_t		message_len;	/* where the furthest write ended */
	atomic_long_t	reads;		/* reads of value and message */
	atomic_long_t	writes;		/* writes to value and message */
	atomic_long_t	rejected;	/* failed writes, to any file */
};

static struct kit_debugfs kit_debugfs;

/* Restore the defaults: with the lock held, or before the files exist. */
static void kit_reset(struct kit_debugfs *kd)
{
	kd->value = KIT_DEFAULT_VALUE;
	memset(kd->message, 0, sizeof(kd->message));
	kd->message_len = strlen(KIT_DEFAULT_MESSAGE);
	memcpy(kd->message, KIT_DEFAULT_MESSAGE, kd->message_len);
	atomic_long_set(&kd->reads, 0);
	atomic_long_set(&kd->writes, 0);
	atomic_long_set(&kd->rejected, 0);
}

/* Count a finished read or write in stats; give back its result. */
static ssize_t kit_count_read(struct kit_debugfs *kd, ssize_t ret)
{
	if (ret >= 0)
		atomic_long_inc(&kd->reads);
	return ret;
}

/* -EAGAIN is no rejection: the write is tried again, where it may wait. */
static ssize_t kit_count_write(struct kit_debugfs *kd, ssize_t ret)
{
	if (ret != -EAGAIN)
		atomic_long_inc(ret < 0 ? &kd->rejected : &kd->writes);
	return ret;
}

/* Every file's data is our instance: see the creation of the files. */
static int kit_open(struct inode *inode, struct file *file)
{
	file->private_data = inode->i_private;
	return 0;
}

/* value: a whole number per write, at any file position. */

static ssize_t value_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	char tmp[12];		/* "4294967295\n" and a NUL */
	ssize_t ret;
	int len;

	mutex_lock(&kd->lock);
	len = scnprintf(tmp, sizeof(tmp), "%u\n", kd->value);
	mutex_unlock(&kd->lock);
	ret = simple_read_from_buffer(buf, count, ppos, tmp, len);
	return kit_count_read(kd, ret);
}

static ssize_t value_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	ssize_t ret;
	u32 val;

	ret = -EINVAL;
	if (count > KIT_VALUE_MAX_INPUT)
		goto out;
	/* Base 0: "0x" means hex, a leading 0 octal; one '\n' may end it. */
	ret = kstrtou32_from_user(buf, count, 0, &val);
	if (ret)
		goto out;
	mutex_lock(&kd->lock);
	kd->value = val;
	mutex_unlock(&kd->lock);
	ret = count;
out:
	return kit_count_write(kd, ret);
}

/* message: bytes at file positions, like a small file. */

/* Opening with O_TRUNC empties it, as for a file: "echo hi > message". */
static int message_open(struct inode *inode, struct file *file)
{
	struct kit_debugfs *kd = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&kd->lock);
		memset(kd->message, 0, sizeof(kd->message));
		kd->message_len = 0;
		mutex_unlock(&kd->lock);
	}
	return kit_open(inode, file);
}

static ssize_t message_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	char tmp[KIT_MESSAGE_SIZE];
	ssize_t ret;
	size_t len;

	mutex_lock(&kd->lock);
	len = kd->message_len;
	memcpy(tmp, kd->message, len);
	mutex_unlock(&kd->lock);
	ret = simple_read_from_buffer(buf, count, ppos, tmp, len);
	return kit_count_read(kd, ret);
}

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
	struct kit_debugfs *kd = file->private_data;
	char tmp[KIT_MESSAGE_SIZE];
	loff_t pos = *ppos;
	ssize_t ret;

	ret = -ENOSPC;
	if (count && pos >= KIT_MESSAGE_SIZE)
		goto out;
	/* Into tmp at the same position first; only those bytes are used. */
	ret = simple_write_to_buffer(tmp, sizeof(tmp), &pos, buf, count);
	if (ret <= 0)
		goto out;
	mutex_lock(&kd->lock);
	memcpy(kd->message + *ppos, tmp + *ppos, ret);
	kd->message_len = max_t(size_t, kd->message_len, pos);
	mutex_unlock(&kd->lock);
	*ppos = pos;
out:
	return kit_count_write(kd, ret);
}

/* stats: a snapshot of the counters; reading it is not counted. */

static ssize_t stats_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	char tmp[80];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "reads %ld\nwrites %ld\nrejected %ld\n",
			atomic_long_read(&kd->reads),
			atomic_long_read(&kd->writes),
			atomic_long_read(&kd->rejected));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

/* trigger: a command per write. */

static ssize_t trigger_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct kit_debugfs *kd = file->private_data;
	char cmd[16];		/* "reset\n" and a NUL, with room to spare */
	ssize_t ret;

	ret = -EINVAL;
	if (count >= sizeof(cmd))
		goto out;
	ret = -EFAULT;
	if (copy_from_user(cmd, buf, count))
		goto out;
	cmd[count] = '\0';
	ret = -EINVAL;
	if (!sysfs_streq(cmd, "reset"))		/* one '\n' may end it */
		goto out;
	mutex_lock(&kd->lock);
	kit_reset(kd);
	mutex_unlock(&kd->lock);
	return count;		/* not counted: the counters start again */
out:
	return kit_count_write(kd, ret);
}

/*
 * .owner makes each open file hold a reference to this module: rmmod fails
 * with EWOULDBLOCK until the last one is closed, so the code stays while
 * the VFS can still call it.  default_llseek() moves the position anywhere
 * from 0 on; SEEK_END counts from the inode size, which is 0 in debugfs.
 */
static const struct file_operations value_fops = {
	.owner		= THIS_MODULE,
	.open		= kit_open,
	.read		= value_read,
	.write		= value_write,
	.llseek		= default_llseek,
};

static const struct file_operations message_fops = {
	.owner		= THIS_MODULE,
	.open		= message_open,
	.read		= message_read,
	.write		= message_write,
	.llseek		= default_llseek,
};

static const struct file_operations stats_fops = {
	.owner		= THIS_MODULE,
	.open		= kit_open,
	.read		= stats_read,
	.llseek		= default_llseek,
};

static const struct file_operations trigger_fops = {
	.owner		= THIS_MODULE,
	.open		= kit_open,
	.write		= trigger_write,
	.llseek		= default_llseek,
};

static const struct kit_file {
	const char			*name;
	umode_t				mode;
	const struct file_operations	*fops;
} kit_files[] = {
	{ "value",	0600, &value_fops },
	{ "message",	0600, &message_fops },
	{ "stats",	0400, &stats_fops },
	{ "trigger",	0200, &trigger_fops },
};

static struct dentry *kit_create_file(struct kit_debugfs *kd,
				      const struct kit_file *f)
{
	/* LAB 4: create it so that its iterator methods are called */
	return debugfs_create_file(f->name, f->mode, kd->dir, kd, f->fops);
	/* LAB END */
}

static int __init kit_debugfs_init(void)
{
	struct kit_debugfs *kd = &kit_debugfs;
	struct dentry *file;
	unsigned int i;
	int ret;

	mutex_init(&kd->lock);
	kit_reset(kd);

	/*
	 * Most drivers ignore debugfs errors: debugfs is a debugging aid, and
	 * a driver must work without it.  This module is nothing but its
	 * files, so it refuses to load without them.
	 */
	kd->dir = debugfs_create_dir("kit-debugfs", NULL);
	if (IS_ERR(kd->dir))
		return PTR_ERR(kd->dir);
	for (i = 0; i < ARRAY_SIZE(kit_files); i++) {
		file = kit_create_file(kd, &kit_files[i]);
		if (IS_ERR(file)) {
			ret = PTR_ERR(file);
			goto err_remove;
		}
	}
	return 0;

err_remove:
	debugfs_remove(kd->dir);
	return ret;
}

static void __exit kit_debugfs_exit(void)
{
	/* Removes the files, after waiting for handlers still running. */
	debugfs_remove(kit_debugfs.dir);
}

module_init(kit_debugfs_init);
module_exit(kit_debugfs_exit);

MODULE_DESCRIPTION("iterkit: attribute files in debugfs");
MODULE_LICENSE("GPL");
