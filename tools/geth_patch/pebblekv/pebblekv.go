// Package pebblekv is a minimal go-ethereum ethdb.KeyValueStore over a
// Pebble database opened with caller-supplied options, so that ethstate can
// run go-ethereum's StateDB on Pebble through the fdpvfs wrapper without a
// patched go-ethereum (whose ethdb/pebble.New takes no vfs.FS).
package pebblekv

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/ethereum/go-ethereum/ethdb"
)

// Options returns Pebble options shaped like go-ethereum's for a cache of
// cacheMB megabytes: half of it split over four memtables, the same level
// target sizes and bloom filters, L0 compaction after two sub-levels, seek
// compactions off and the WAL synced in the background every 500 KB.
func Options(cacheMB int) *pebble.Options {
	if cacheMB < 16 {
		cacheMB = 16
	}
	const memTables = 4
	memTableSize := uint64(cacheMB) << 20 / 2 / memTables
	levels := make([]pebble.LevelOptions, 7)
	for i := range levels {
		levels[i] = pebble.LevelOptions{
			TargetFileSize: int64(2<<20) << i, // 2 MB at L0, doubling per level
			FilterPolicy:   bloom.FilterPolicy(10),
		}
	}
	opt := &pebble.Options{
		Cache:                       pebble.NewCache(int64(cacheMB) << 20),
		MaxOpenFiles:                1024,
		MemTableSize:                memTableSize,
		MemTableStopWritesThreshold: memTables,
		MaxConcurrentCompactions:    func() int { return 2 },
		Levels:                      levels,
		WALBytesPerSync:             5 * ethdb.IdealBatchSize,
		L0CompactionThreshold:       2,
		Logger:                      quietLogger{},
	}
	opt.Experimental.ReadSamplingMultiplier = -1
	return opt
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...interface{})  {}
func (quietLogger) Errorf(string, ...interface{}) {}
func (quietLogger) Fatalf(format string, args ...interface{}) {
	panic(fmt.Errorf("pebble fatal: "+format, args...))
}

// Store is an ethdb.KeyValueStore backed by a *pebble.DB. Writes do not
// sync (as go-ethereum's); SyncKeyValue forces the WAL to disk.
type Store struct {
	db *pebble.DB
}

var _ ethdb.KeyValueStore = (*Store)(nil)

// Open opens the Pebble database in dir with opt.
func Open(dir string, opt *pebble.Options) (*Store, error) {
	db, err := pebble.Open(dir, opt)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// DB returns the underlying Pebble database.
func (s *Store) DB() *pebble.DB { return s.db }

// Has reports whether key is present.
func (s *Store) Has(key []byte) (bool, error) {
	_, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, closer.Close()
}

// Get returns a copy of key's value, or an error when it is absent.
func (s *Store) Get(key []byte) ([]byte, error) {
	v, closer, err := s.db.Get(key)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(v)
	if out == nil {
		out = []byte{}
	}
	return out, closer.Close()
}

// Put stores value under key.
func (s *Store) Put(key, value []byte) error { return s.db.Set(key, value, pebble.NoSync) }

// Delete removes key.
func (s *Store) Delete(key []byte) error { return s.db.Delete(key, pebble.NoSync) }

// DeleteRange removes every key in [start, end).
func (s *Store) DeleteRange(start, end []byte) error {
	return s.db.DeleteRange(start, end, pebble.NoSync)
}

// Stat returns Pebble's metrics table.
func (s *Store) Stat() (string, error) { return s.db.Metrics().String(), nil }

// SyncKeyValue makes every earlier write durable by committing an empty,
// synced batch (which syncs the WAL).
func (s *Store) SyncKeyValue() error {
	b := s.db.NewBatch()
	if err := b.LogData(nil, nil); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}

// Compact compacts [start, limit); nil limit means to the end of the keyspace.
func (s *Store) Compact(start, limit []byte) error {
	if limit == nil {
		it, err := s.db.NewIter(nil)
		if err != nil {
			return err
		}
		if it.Last() {
			limit = append(bytes.Clone(it.Key()), 0)
		}
		if err := it.Close(); err != nil {
			return err
		}
		if limit == nil {
			return nil // empty database
		}
	}
	if start == nil {
		start = []byte{}
	}
	return s.db.Compact(start, limit, true)
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// NewBatch returns a write batch.
func (s *Store) NewBatch() ethdb.Batch { return &batch{db: s.db, b: s.db.NewBatch()} }

// NewBatchWithSize returns a write batch with size bytes preallocated.
func (s *Store) NewBatchWithSize(size int) ethdb.Batch {
	return &batch{db: s.db, b: s.db.NewBatchWithSize(size)}
}

type batch struct {
	db   *pebble.DB
	b    *pebble.Batch
	size int
}

func (b *batch) Put(key, value []byte) error {
	b.size += len(key) + len(value)
	return b.b.Set(key, value, nil)
}

func (b *batch) Delete(key []byte) error {
	b.size += len(key)
	return b.b.Delete(key, nil)
}

func (b *batch) DeleteRange(start, end []byte) error {
	b.size += len(start) + len(end)
	return b.b.DeleteRange(start, end, nil)
}

func (b *batch) ValueSize() int { return b.size }
func (b *batch) Write() error   { return b.b.Commit(pebble.NoSync) }
func (b *batch) Reset()         { b.b.Reset(); b.size = 0 }

// Replay feeds the batch's operations to w in order.
func (b *batch) Replay(w ethdb.KeyValueWriter) error {
	r := b.b.Reader()
	for {
		kind, k, v, ok, err := r.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		switch kind {
		case pebble.InternalKeyKindSet:
			err = w.Put(k, v)
		case pebble.InternalKeyKindDelete:
			err = w.Delete(k)
		case pebble.InternalKeyKindRangeDelete:
			rd, isRD := w.(ethdb.KeyValueRangeDeleter)
			if !isRD {
				return errors.New("pebblekv: replay target cannot delete ranges")
			}
			err = rd.DeleteRange(k, v)
		}
		if err != nil {
			return err
		}
	}
}

// NewIterator iterates over the keys with prefix, starting at prefix+start.
func (s *Store) NewIterator(prefix, start []byte) ethdb.Iterator {
	lower := append(bytes.Clone(prefix), start...)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: prefixEnd(prefix)})
	return &iterator{it: it, err: err}
}

// prefixEnd is the smallest key greater than every key with prefix p, or nil.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}

type iterator struct {
	it      *pebble.Iterator
	err     error
	started bool
}

func (i *iterator) Next() bool {
	if i.it == nil {
		return false
	}
	if !i.started {
		i.started = true
		return i.it.First()
	}
	return i.it.Next()
}

func (i *iterator) Error() error {
	if i.err != nil {
		return i.err
	}
	if i.it == nil {
		return nil
	}
	return i.it.Error()
}

func (i *iterator) Key() []byte {
	if i.it == nil || !i.it.Valid() {
		return nil
	}
	return i.it.Key()
}

func (i *iterator) Value() []byte {
	if i.it == nil || !i.it.Valid() {
		return nil
	}
	return i.it.Value()
}

func (i *iterator) Release() {
	if i.it != nil {
		i.it.Close()
		i.it = nil
	}
}
