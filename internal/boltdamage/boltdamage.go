// Package boltdamage damages a bbolt database file the way a failing disk
// does, for the tests of what bottlepost does with a damaged database: a
// page at a time (LastLeafOf finds a leaf page by the keys on it and
// overwrites the page's type, so that bbolt panics when it reaches the
// page and its consistency check reports it), or a value at a time
// (Value rewrites one stored value, or key, through bbolt itself: the
// pages stay sound and only what the value means is damaged, which only a
// check that decodes it finds).
package boltdamage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Value rewrites the value stored under key in the top-level bucket of
// the database at path with what damage makes of it (a copy: damage may
// change it in place); damage returning nil deletes it. With key nil the
// first key of the bucket is taken whose value match accepts (nil
// accepts any). It returns the key it damaged.
func Value(path, bucket string, key []byte, match func(k, v []byte) bool, damage func(v []byte) []byte) ([]byte, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("boltdamage: %w", err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("boltdamage: no bucket %q", bucket)
		}
		if key == nil {
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if v != nil && (match == nil || match(k, v)) {
					key = bytes.Clone(k)
					break
				}
			}
			if key == nil {
				return fmt.Errorf("boltdamage: no value in bucket %q to damage", bucket)
			}
		}
		v := b.Get(key)
		if v == nil {
			return fmt.Errorf("boltdamage: bucket %q has no key %q", bucket, key)
		}
		nv := damage(bytes.Clone(v))
		if nv == nil {
			return b.Delete(key)
		}
		return b.Put(key, nv)
	})
	return key, err
}

// Key renames the entry under key in the top-level bucket of the database
// at path to what damage makes of the key (a bit flipped in a key, as a
// failing disk does): the value stays, under a key nobody looks for.
func Key(path, bucket string, key []byte, damage func(k []byte) []byte) ([]byte, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("boltdamage: %w", err)
	}
	defer db.Close()
	nk := damage(bytes.Clone(key))
	return nk, db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if b == nil {
			return fmt.Errorf("boltdamage: no bucket %q", bucket)
		}
		v := b.Get(key)
		if v == nil {
			return fmt.Errorf("boltdamage: bucket %q has no key %q", bucket, key)
		}
		v = bytes.Clone(v)
		if err := b.Delete(key); err != nil {
			return err
		}
		return b.Put(nk, v)
	})
}

// bbolt's on-disk layout (go.etcd.io/bbolt/internal/common): a page header
// of 16 bytes (id 8, flags 2, count 2, overflow 4), leaf elements of 16
// bytes (flags 4, pos 4, ksize 4, vsize 4), the page size in the meta page.
const (
	headerSize   = 16
	leafElemSize = 16
	leafFlag     = 0x02
	metaPageSize = headerSize + 8 // magic 4, version 4, then the page size
)

// LastLeafOf finds the leaf page holding the greatest keys that all start
// with prefix (and only such keys, so the damage touches nothing else) and
// overwrites its type. It returns the page's number.
func LastLeafOf(path string, prefix []byte) (uint64, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	head := make([]byte, 64)
	if _, err := f.ReadAt(head, 0); err != nil {
		return 0, fmt.Errorf("boltdamage: %w", err)
	}
	pageSize := int64(binary.LittleEndian.Uint32(head[metaPageSize:]))
	if pageSize < 512 || pageSize > 1<<16 {
		return 0, fmt.Errorf("boltdamage: %s: page size %d", path, pageSize)
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	var best int64 = -1
	var bestKey []byte
	page := make([]byte, pageSize)
	for off := 2 * pageSize; off+pageSize <= fi.Size(); off += pageSize {
		if _, err := f.ReadAt(page, off); err != nil {
			return 0, err
		}
		if binary.LittleEndian.Uint16(page[8:]) != leafFlag || uint64(off/pageSize) != binary.LittleEndian.Uint64(page) {
			continue
		}
		n := int(binary.LittleEndian.Uint16(page[10:]))
		if n == 0 {
			continue
		}
		var last []byte
		ok := true
		for i := range n {
			e := headerSize + i*leafElemSize
			if e+leafElemSize > len(page) {
				ok = false
				break
			}
			flags := binary.LittleEndian.Uint32(page[e:])
			pos := int(binary.LittleEndian.Uint32(page[e+4:]))
			ksize := int(binary.LittleEndian.Uint32(page[e+8:]))
			start := e + pos
			if flags != 0 || start+ksize > len(page) || !bytes.HasPrefix(page[start:start+ksize], prefix) {
				ok = false
				break
			}
			last = page[start : start+ksize]
		}
		if ok && bytes.Compare(last, bestKey) > 0 {
			best, bestKey = off, append([]byte(nil), last...)
		}
	}
	if best < 0 {
		return 0, errors.New("boltdamage: no leaf page holds only keys with that prefix")
	}
	var bad [2]byte
	binary.LittleEndian.PutUint16(bad[:], 0x7f)
	if _, err := f.WriteAt(bad[:], best+8); err != nil {
		return 0, err
	}
	return uint64(best / pageSize), f.Sync()
}
