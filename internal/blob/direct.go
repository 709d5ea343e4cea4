package blob

// Large blobs past the page cache. An inbound 835 of 60 MB makes about
// 0.9 GB of Guide JSON and fragments, written once and read rarely; through
// the page cache each 4 KiB page costs an allocation (often a reclaim of
// another) and a copy, 0.75 CPU-s for that file, and Commit's fsync then
// writes it all again from the cache. Past directAfter bytes, a blob's
// writes go to the disk with O_DIRECT from an aligned buffer instead (about
// a tenth of that CPU in a 128 MB trial on this machine); the tail shorter
// than a block, and everything on a file system that refuses O_DIRECT, goes
// through the page cache as before. Commit still fsyncs: O_DIRECT bypasses
// the cache but not the disk's own, so durability is unchanged.

// directAfter is how much of a blob is written through the page cache
// before the rest goes direct: small blobs (claims' documents, most
// fragments' first part) never pay for the buffer.
const directAfter = 512 << 10

// directAlign is the alignment O_DIRECT needs of the buffer's address, the
// file offset and the length (the logical block size; 4096 covers them all).
const directAlign = 4096

// directSize is the aligned buffer's size: the size of each direct write.
const directSize = 1 << 20

// directBufs keeps up to directKept buffers for the next large blobs. A
// fixed free list, not a sync.Pool: a file of sets of 1,000 claims writes
// four blobs of about 1 MB a set, and a pool emptied at every collection
// would allocate a new megabyte for most of them. The buffers are mapped
// outside the Go heap (newDirectBuf): kept in the heap, 8 MB of them
// counted as live data, and with serve's GOGC=400 the collector let the heap
// grow by five times that before collecting (peak RSS of the 60 MB 835 in
// sets of 1,000, GOMEMLIMIT off: 183 MB against 135 MB before).
var directBufs = make(chan *[]byte, directKept)

const directKept = 8

func getDirectBuf() (*[]byte, error) {
	select {
	case b := <-directBufs:
		return b, nil
	default:
	}
	b, err := newDirectBuf()
	if err != nil {
		return nil, err
	}
	return &b, nil
}

func putDirectBuf(b *[]byte) {
	select {
	case directBufs <- b:
	default: // more blobs went direct at once than are kept
		freeDirectBuf(*b)
	}
}

// writeDirect is Write for a blob past directAfter.
func (w *fileWriter) writeDirect(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		c := copy((*w.direct)[w.dn:], p)
		w.dn += c
		p = p[c:]
		if w.dn == directSize {
			if err := w.flushDirect(false); err != nil {
				return total - len(p), err
			}
		}
	}
	return total, nil
}

// startDirect switches w to direct writes once its offset is aligned;
// false if it cannot (it stays buffered).
func (w *fileWriter) startDirect() bool {
	buf, err := getDirectBuf()
	if err != nil {
		w.noDirect = true
		return false
	}
	if err := setDirect(w.f, true); err != nil {
		putDirectBuf(buf)
		w.noDirect = true
		return false
	}
	w.direct = buf
	return true
}

// flushDirect writes the whole blocks of the buffer; final also writes the
// tail, through the page cache, and gives the buffer back.
func (w *fileWriter) flushDirect(final bool) error {
	buf := *w.direct
	if n := w.dn - w.dn%directAlign; n > 0 {
		m, err := w.f.Write(buf[:n])
		w.written += int64(m)
		if err != nil && m == 0 && !w.wroteDirect {
			// The file system took the flag but not the write (EINVAL on
			// some): the rest goes through the page cache.
			w.noDirect = true
			return w.endDirect(buf[:w.dn])
		}
		if err != nil {
			return err
		}
		w.wroteDirect = true
		w.dn = copy(buf, buf[n:w.dn])
	}
	if !final {
		return nil
	}
	return w.endDirect(buf[:w.dn])
}

// endDirect turns O_DIRECT off, writes rest buffered and releases the
// buffer.
func (w *fileWriter) endDirect(rest []byte) error {
	err := setDirect(w.f, false)
	if err == nil && len(rest) > 0 {
		var m int
		m, err = w.f.Write(rest)
		w.written += int64(m)
	}
	w.dn = 0
	putDirectBuf(w.direct)
	w.direct = nil
	return err
}

// releaseDirect gives the buffer back without writing (Abort).
func (w *fileWriter) releaseDirect() {
	if w.direct != nil {
		putDirectBuf(w.direct)
		w.direct = nil
	}
}
