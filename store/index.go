package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// MaxMatch is the longest Game.Match the store accepts, in bytes.
const MaxMatch = 256

// matchKey is the match index's key of a game listed under match: the key's length as a
// uvarint, the key, the game id. The length keeps one key from being a prefix of another;
// the id orders the games under a key oldest first.
func matchKey(match string, game uint64) []byte {
	return binary.BigEndian.AppendUint64(matchPrefix(match), game)
}

func matchPrefix(match string) []byte {
	return append(binary.AppendUvarint(nil, uint64(len(match))), match...)
}

func validMatch(g *Game) error {
	if len(g.Match) > MaxMatch || !utf8.ValidString(g.Match) {
		return fmt.Errorf("store: game %d: match key %q is longer than %d bytes or not UTF-8: %w", g.ID, g.Match, MaxMatch, ErrInvalid)
	}
	return nil
}

// indexMatch moves a game's entry in the match index from old to new ("" for none).
func (tx *Tx) indexMatch(game uint64, old, new string) error {
	if old == new {
		return nil
	}
	b := tx.bucket(bucketMatches)
	if old != "" {
		if err := tx.del(b, matchKey(old, game)); err != nil {
			return err
		}
	}
	if new != "" {
		return tx.put(b, matchKey(new, game), nil)
	}
	return nil
}

// Matching returns the ids of the games listed under match (see Game.Match), oldest first,
// at most limit of them (all if limit <= 0). It reads the match index only: its cost
// follows the number of games listed under match, not the number of games in the store.
// Archived games are never listed.
func (tx *Tx) Matching(match string, limit int) ([]uint64, error) {
	if match == "" {
		return nil, nil
	}
	prefix := matchPrefix(match)
	var ids []uint64
	c := tx.bucket(bucketMatches).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) != len(prefix)+8 {
			return nil, fmt.Errorf("store: match index key %x is malformed: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k[len(prefix):]))
		if limit > 0 && len(ids) == limit {
			break
		}
	}
	return ids, nil
}

// playerDueKey is the player deadline index's key: the instant (fixed-width UTC, so byte
// order is time order) and the player id.
func playerDueKey(player uint64, at time.Time) []byte {
	k := make([]byte, 0, len(deadlineTimeLayout)+8)
	k = at.UTC().AppendFormat(k, deadlineTimeLayout)
	return binary.BigEndian.AppendUint64(k, player)
}

// indexPlayerDue moves a player's entry in the player deadline index from old to new (zero
// for none).
func (tx *Tx) indexPlayerDue(player uint64, old, new time.Time) error {
	if old.Equal(new) {
		return nil
	}
	b := tx.bucket(bucketPlayerDue)
	if !old.IsZero() {
		if err := tx.del(b, playerDueKey(player, old)); err != nil {
			return err
		}
	}
	if !new.IsZero() {
		return tx.put(b, playerDueKey(player, new), nil)
	}
	return nil
}

// PlayerDue is a player's deadline found in the player deadline index.
type PlayerDue struct {
	Player uint64
	At     time.Time
}

// DuePlayers lists the players whose Due is at or before before, earliest first, at most
// limit (all if limit <= 0). It reads the player deadline index up to before: its cost
// follows the number of players due, not the number of players.
func (tx *Tx) DuePlayers(before time.Time, limit int) ([]PlayerDue, error) {
	end := before.UTC().AppendFormat(nil, deadlineTimeLayout)
	var out []PlayerDue
	c := tx.bucket(bucketPlayerDue).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < len(end) || bytes.Compare(k[:len(end)], end) > 0 {
			break
		}
		if len(k) != len(end)+8 {
			return nil, fmt.Errorf("store: player deadline key %q is malformed: %w", k, ErrCorrupt)
		}
		at, err := time.Parse(deadlineTimeLayout, string(k[:len(end)]))
		if err != nil {
			return nil, fmt.Errorf("store: player deadline key %q: %w", k, ErrCorrupt)
		}
		out = append(out, PlayerDue{Player: beUint64(k[len(end):]), At: at})
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}

// verifyIndexes compares the match index with the keys the games call for (matches, which
// it empties), and the player deadline index with the players' deadlines, and returns the
// differences.
func (tx *Tx) verifyIndexes(matches map[string]bool) []error {
	errs := compareIndex(tx.bucket(bucketMatches), "match index", matches, "game")
	due := map[string]bool{}
	err := tx.bucket(bucketPlayers).ForEach(func(k, v []byte) error {
		p, err := decodePlayer(v)
		if err != nil {
			return nil // verifyRecords names it
		}
		if !p.Due.IsZero() {
			due[string(playerDueKey(p.ID, p.Due))] = true
		}
		return nil
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("store: players: %w", err))
	}
	return append(errs, compareIndex(tx.bucket(bucketPlayerDue), "player deadline index", due, "player")...)
}

// compareIndex compares the keys of an index bucket with want (which it empties). Each key
// ends with the id of what it indexes (of, "game" or "player"), which the problems name.
func compareIndex(b *bolt.Bucket, name string, want map[string]bool, of string) []error {
	var errs []error
	owner := func(k []byte) string {
		if len(k) >= 8 {
			return fmt.Sprintf("%s %d", of, beUint64(k[len(k)-8:]))
		}
		return name
	}
	err := b.ForEach(func(k, _ []byte) error {
		if !want[string(k)] {
			errs = append(errs, fmt.Errorf("store: %s: the %s holds %q, which nothing calls for: %w", owner(k), name, k, ErrCorrupt))
		}
		delete(want, string(k))
		return nil
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("store: %s: %w", name, err))
	}
	for k := range want {
		errs = append(errs, fmt.Errorf("store: %s: the %s lacks %q: %w", owner([]byte(k)), name, k, ErrCorrupt))
	}
	return errs
}

// counters are the store's own counts behind Stats.
type counters struct {
	gamesRead atomic.Int64
}

// Stats are counts of the store's work since Open, for watching how its costs scale: a
// move's commit should cost what it changes, whatever the number of games in the file, and
// starting up should read no game.
type Stats struct {
	// GamesRead is the number of game records read and decoded (Game, PutGame, Append,
	// PutToken, Log, Export, Verify each read the games they touch).
	GamesRead int64
	// PageBytesWritten is the number of bytes of pages that commits wrote (the B+tree pages
	// a transaction changed and the free-page list), not counting the meta page.
	PageBytesWritten int64
	// PagesWritten is the number of page writes of those commits (a run of overflow pages
	// counts once).
	PagesWritten int64
	// FreePages is the number of pages free for reuse in the file now; bbolt writes their
	// list at every commit.
	FreePages int
	// FileBytes is the size of the database as the last transaction saw it.
	FileBytes int64
}

// Stats returns the store's counts since Open.
func (s *Store) Stats() Stats {
	bs := s.db.Stats()
	st := Stats{
		GamesRead:        s.counts.gamesRead.Load(),
		PageBytesWritten: bs.TxStats.GetPageAlloc(),
		PagesWritten:     bs.TxStats.GetWrite(),
		FreePages:        bs.FreePageN + bs.PendingPageN,
	}
	_ = s.db.View(func(btx *bolt.Tx) error { st.FileBytes = btx.Size(); return nil })
	return st
}
