// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: the series' helpers (get/put_iter, simple_copy_*,
 * kstrto*_from_iter), the chunk loop, seq_read, procfs, a debugfs file,
 * and functions declared before the fops that name them.  All native.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static char data[64];
static u32 value;

static ssize_t put_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos);
static ssize_t get_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos);

static const struct file_operations early_fops = {
	.owner		= THIS_MODULE,
	.read		= put_read,
	.write		= get_write,
};

static ssize_t put_read(struct file *file, char __user *buf, size_t count,
			loff_t *ppos)
{
	int v = 42;

	if (count < sizeof(v))
		return -EINVAL;
	if (put_user(v, (int __user *)buf))
		return -EFAULT;
	return sizeof(v);
}

static ssize_t get_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	char c;

	if (!count)
		return 0;
	if (get_user(c, buf))
		return -EFAULT;
	data[0] = c;
	return 1;
}

static ssize_t value_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	char tmp[12];
	int len = scnprintf(tmp, sizeof(tmp), "%u\n", value);

	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t value_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	int ret = kstrtou32_from_user(buf, count, 0, &value);

	return ret ? ret : count;
}

static ssize_t data_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	loff_t pos = *ppos;
	ssize_t ret;

	ret = simple_write_to_buffer(data, sizeof(data), &pos, buf, count);
	if (ret > 0)
		*ppos = pos;
	return ret;
}

/* LAB 9: the chunk loop; markers around it must not matter. */
static ssize_t scan_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	char chunk[16];
	size_t done, n;

	for (done = 0; done < count; done += n) {
		n = min(count - done, sizeof(chunk));
		if (copy_from_user(chunk, buf + done, n))
			return -EFAULT;
		/* LAB END */
		if (memchr(chunk, 'V', n))
			data[1] = 'V';
	}
	return count;
}

static const struct file_operations value_fops = {
	.owner		= THIS_MODULE,
	.read		= value_read,
	.write		= value_write,
	.llseek		= default_llseek,
};

static const struct file_operations scan_fops = {
	.owner		= THIS_MODULE,
	.write		= scan_write,
	.llseek		= noop_llseek,
};

static int table_show(struct seq_file *m, void *v)
{
	seq_puts(m, data);
	return 0;
}

static int table_open(struct inode *inode, struct file *file)
{
	return single_open(file, table_show, NULL);
}

static const struct file_operations table_fops = {
	.owner		= THIS_MODULE,
	.open		= table_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static const struct proc_ops data_proc_ops = {
	.proc_read	= value_read,
	.proc_write	= data_write,
	.proc_lseek	= default_llseek,
};

static int __init helpers_init(void)
{
	struct dentry *dir = debugfs_create_dir("helpers", NULL);

	debugfs_create_file("value", 0600, dir, NULL, &value_fops);
	debugfs_create_file("scan", 0200, dir, NULL, &scan_fops);
	debugfs_create_file("table", 0400, dir, NULL, &table_fops);
	debugfs_create_file("early", 0600, dir, NULL, &early_fops);
	proc_create("helpers", 0600, NULL, &data_proc_ops);
	return 0;
}
module_init(helpers_init);

MODULE_LICENSE("GPL");
