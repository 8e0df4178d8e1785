package store

// Each game's log: appending records (sealed and committed to where secret), reading
// and verifying them against the hash chain.

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

func logKey(game uint64, index uint32) []byte {
	return binary.BigEndian.AppendUint32(be64(game), index)
}

func recordContext(game uint64, r *rawRecord) sealContext {
	return sealContext{purpose: "record", game: game, index: uint64(r.Index), ply: r.Ply, side: uint8(r.Side)}
}

// Append adds a record to game g's log, extends the hash chain and updates g.Records and
// g.Head (in g and in the store; the rest of g is not written, use PutGame for that).
//
// In a Hidden game the per-side lines that differ from the public line are sealed, and so
// is the text of a secret move, which also gets a commitment (returned in the record, with
// its opening). Secret entries are refused in other games, and entries in games that are no
// longer active. g must be up to date (else ErrConflict).
func (tx *Tx) Append(g *Game, e Entry) (*Record, error) {
	old, err := tx.liveGame(g)
	if err != nil {
		return nil, err
	}
	if err := checkEntry(old, e); err != nil {
		return nil, err
	}
	raw := &rawRecord{Kind: e.Kind, Side: e.Side, Secret: e.Secret, Index: old.Records, Ply: e.Ply,
		At: e.At.UTC(), Text: e.Text, Public: e.Public}
	rec := &Record{Entry: e, Game: g.ID, Index: raw.Index}
	rec.At = raw.At
	private := false // a line that is not the public one
	for i, l := range e.Lines {
		if raw.SamePublic[i] = l == e.Public; !raw.SamePublic[i] {
			raw.Lines[i] = l // stored once, as a flag, when it is the public line
			private = private || l != ""
		}
	}
	if old.Hidden && (e.Secret || private) {
		part := &secretPart{Lines: raw.Lines}
		raw.Lines = [2]string{}
		if e.Secret {
			c, o, err := Commit(g.ID, e.Ply, e.Side, e.Text, rand.Reader)
			if err != nil {
				return nil, err
			}
			part.Text, part.Key = e.Text, &o.Key
			raw.Text, raw.Commitment = "", c
			rec.Commitment, rec.Opening = c, &o
		}
		if raw.Sealed, err = tx.s.vault.seal(recordContext(g.ID, raw), encodeSecret(part)); err != nil {
			return nil, err
		}
		rec.Sealed = true
	}
	body := encodeRecord(raw)
	rec.Hash = chainNext(old.Head, body)
	rec.body = body

	lb := tx.bucket(bucketLog)
	lb.FillPercent = 0.95 // keys only grow: pack the pages
	key := logKey(g.ID, raw.Index)
	if lb.Get(key) != nil {
		return nil, fmt.Errorf("store: game %d already has a record %d beyond its head: %w", g.ID, raw.Index, ErrTampered)
	}
	if err := tx.put(lb, key, append(body, rec.Hash[:checkSize]...)); err != nil {
		return nil, err
	}
	old.Records++
	old.Head = rec.Hash
	if err := tx.put(tx.bucket(bucketGames), be64(g.ID), encodeGame(old, old.State)); err != nil {
		return nil, err
	}
	g.Records, g.Head = old.Records, old.Head
	return rec, nil
}

func checkEntry(g *Game, e Entry) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("store: game %d record %d: %s: %w", g.ID, g.Records, fmt.Sprintf(format, args...), ErrInvalid)
	}
	switch {
	case g.Status != StatusActive:
		return bad("the game is %s", g.Status)
	case !e.Kind.known():
		return bad("unknown kind %d", e.Kind)
	case !e.Side.valid():
		return bad("unknown side %d", e.Side)
	case e.Text == "":
		return bad("no text")
	case e.Secret && !g.Hidden:
		return bad("a secret entry in a game without hidden information")
	case e.Secret && e.Kind != KindMove:
		return bad("only moves can be secret")
	case e.At.IsZero():
		return bad("no time")
	case g.Records == ^uint32(0):
		return bad("the log is full")
	}
	for _, s := range []string{e.Text, e.Public, e.Lines[0], e.Lines[1]} {
		if !utf8.ValidString(s) {
			return bad("text %q is not UTF-8", s)
		}
	}
	return nil
}

// checkSize is how much of the chain head after a record is stored with it: enough to show
// which record was changed. A forger could recompute any stored hash, whatever its length;
// what stops forgery is the game's head and the receipts the players hold, which are whole.
const checkSize = 8

// chain reads a game's log as stored and verifies its chain up to the game's head. It
// returns the records' encodings and the head after each.
func (tx *Tx) chain(g *Game) ([][]byte, []Digest, error) {
	tx.game = g.ID
	var bodies, checks [][]byte
	prefix := be64(g.ID)
	c := tx.bucket(bucketLog).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) != 12 || len(v) < checkSize {
			return nil, nil, fmt.Errorf("store: game %d: log entry %x is malformed: %w", g.ID, k, ErrCorrupt)
		}
		n := len(v) - checkSize
		bodies = append(bodies, bytes.Clone(v[:n]))
		checks = append(checks, bytes.Clone(v[n:]))
	}
	heads, err := walkChain(g.ID, len(bodies), func(i int) ([]byte, []byte) { return bodies[i], checks[i] },
		[]Receipt{{Records: g.Records, Head: g.Head}})
	if err != nil {
		return nil, nil, err
	}
	if len(bodies) != int(g.Records) {
		return nil, nil, &ChainError{Game: g.ID, Index: g.Records,
			Reason: fmt.Sprintf("the log has %d records, but the game's head is after %d", len(bodies), g.Records)}
	}
	return bodies, heads, nil
}

// Log returns a game's records in order, with their sealed parts opened. It verifies the
// chain (a *ChainError, errors.Is ErrTampered), every sealed part (ErrTampered) and every
// commitment on the way.
func (tx *Tx) Log(game uint64) ([]Record, error) {
	g, err := tx.rawGame(game)
	if err != nil {
		return nil, err
	}
	bodies, heads, err := tx.chain(g)
	if err != nil {
		return nil, err
	}
	recs := make([]Record, 0, len(bodies))
	for i, body := range bodies {
		r, err := tx.openRecord(game, body, heads[i])
		if err != nil {
			return nil, err
		}
		recs = append(recs, *r)
	}
	return recs, nil
}

// openRecord decodes a stored record and opens its sealed part.
func (tx *Tx) openRecord(game uint64, body []byte, hash Digest) (*Record, error) {
	raw, err := decodeRecord(body)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", game, err)
	}
	r := &Record{
		Entry: Entry{Kind: raw.Kind, Ply: raw.Ply, Side: raw.Side, Text: raw.Text, Secret: raw.Secret,
			Public: raw.Public, Lines: raw.lines(), At: raw.At},
		Game: game, Index: raw.Index, Commitment: raw.Commitment, Hash: hash, body: body,
	}
	if raw.Sealed == nil {
		if raw.Secret {
			return nil, fmt.Errorf("store: game %d record %d: a secret move without a sealed part: %w", game, raw.Index, ErrTampered)
		}
		return r, nil
	}
	plain, err := tx.s.vault.open(recordContext(game, raw), raw.Sealed)
	if err != nil {
		return nil, err
	}
	part, err := decodeSecret(plain)
	if err != nil {
		return nil, fmt.Errorf("store: game %d record %d: %w", game, raw.Index, err)
	}
	r.Sealed = true
	for i, same := range raw.SamePublic {
		if !same {
			r.Lines[i] = part.Lines[i]
		}
	}
	if raw.Secret != (part.Key != nil) {
		return nil, fmt.Errorf("store: game %d record %d: sealed part does not match the record: %w", game, raw.Index, ErrTampered)
	}
	if raw.Secret {
		r.Text = part.Text
		r.Opening = &Opening{Key: *part.Key, Text: part.Text}
		if !VerifyCommitment(game, raw.Ply, raw.Side, raw.Commitment, *r.Opening) {
			return nil, fmt.Errorf("store: game %d record %d (ply %d): the commitment does not open: %w", game, raw.Index, raw.Ply, ErrTampered)
		}
	}
	return r, nil
}

// VerifyGame is the store's own check of a game: its record decodes and its state opens,
// and Log succeeds: every record decodes and opens, every commitment opens, and the hash
// chain leads to the game's head. Problems are ErrTampered (a *ChainError for the chain) or
// ErrCorrupt.
func (tx *Tx) VerifyGame(id uint64) error {
	if _, err := tx.Game(id); err != nil {
		return err
	}
	_, err := tx.Log(id)
	return err
}
