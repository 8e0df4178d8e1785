package store

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/mailfmt"
	bolt "go.etcd.io/bbolt"
)

// Tx is a transaction: the typed operations on the store. A Tx is valid only inside the
// function given to View, Update or Batch; values it returns are copies and stay valid.
// Write methods fail (with ErrReadOnly) in a View transaction.
type Tx struct {
	s  *Store
	tx *bolt.Tx
	// game is the game the transaction last read or wrote, so that a panic
	// of bbolt on a damaged page can be reported with the game it hit.
	game uint64
	// deferred are the jobs left to the commit (Defer); call is the running
	// function's place in its Batch group, finishing is set while the
	// finishes run.
	deferred  []*deferredJob
	call      int
	finishing bool
}

func (tx *Tx) bucket(name []byte) *bolt.Bucket { return tx.tx.Bucket(name) } // Open made them all

// put writes a value and classifies the failure.
func (tx *Tx) put(b *bolt.Bucket, k, v []byte) error {
	if err := b.Put(k, v); err != nil {
		return tx.writeError(err)
	}
	return nil
}

func (tx *Tx) del(b *bolt.Bucket, k []byte) error {
	if err := b.Delete(k); err != nil {
		return tx.writeError(err)
	}
	return nil
}

func (tx *Tx) nextID(b *bolt.Bucket) (uint64, error) {
	id, err := b.NextSequence()
	if err != nil {
		return 0, tx.writeError(err)
	}
	return id, nil
}

func (tx *Tx) writeError(err error) error {
	if !tx.tx.Writable() {
		return fmt.Errorf("store: write in a read-only transaction: %w", ErrReadOnly)
	}
	return fmt.Errorf("store: write: %w", err)
}

func logKey(game uint64, index uint32) []byte {
	return binary.BigEndian.AppendUint32(be64(game), index)
}

func stateContext(game uint64) sealContext {
	return sealContext{purpose: "state", game: game, side: sideNone}
}

func recordContext(game uint64, r *rawRecord) sealContext {
	return sealContext{purpose: "record", game: game, index: uint64(r.Index), ply: r.Ply, side: uint8(r.Side)}
}

func mailContext(m *Mail) sealContext {
	return sealContext{purpose: "mail", game: m.Game, index: m.ID, side: sideNone}
}

// ---- games

// CreateGame stores a new game and sets g.ID, g.Records (0) and g.Head (the chain's start).
// Both seats must name stored players.
func (tx *Tx) CreateGame(g *Game) error {
	if err := tx.checkGame(g); err != nil {
		return err
	}
	games := tx.bucket(bucketGames)
	id, err := tx.nextID(games)
	if err != nil {
		return err
	}
	g.ID, g.Records, g.Head, g.Archived = id, 0, ChainStart(id), false
	if err := tx.writeGame(g, games); err != nil {
		return err
	}
	if err := tx.indexMatch(id, "", g.Match); err != nil {
		return err
	}
	return tx.indexDeadlines(id, nil, g.Deadlines)
}

func (tx *Tx) checkGame(g *Game) error {
	for side, seat := range g.Seats {
		if _, err := tx.Player(seat.Player); err != nil {
			return fmt.Errorf("store: game seat %s: %w", Side(side), err)
		}
	}
	for _, dl := range g.Deadlines {
		if err := validDeadline(dl); err != nil {
			return err
		}
	}
	return validMatch(g)
}

// writeGame seals the state of a hidden game and writes the game record.
func (tx *Tx) writeGame(g *Game, b *bolt.Bucket) error {
	state := g.State
	if g.Hidden {
		var err error
		if state, err = tx.s.vault.seal(stateContext(g.ID), g.State); err != nil {
			return err
		}
	}
	return tx.put(b, be64(g.ID), encodeGame(g, state))
}

// rawGame reads a game record as stored (state still sealed).
func (tx *Tx) rawGame(id uint64) (*Game, error) {
	tx.game = id
	tx.s.counts.gamesRead.Add(1)
	v := tx.bucket(bucketGames).Get(be64(id))
	archived := false
	if v == nil {
		if v = tx.bucket(bucketArchive).Get(be64(id)); v == nil {
			return nil, fmt.Errorf("store: game %d: %w", id, ErrNotFound)
		}
		archived = true
	}
	g, err := decodeGame(v)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("store: game %d holds the record of game %d: %w", id, g.ID, ErrTampered)
	}
	g.Archived = archived
	return g, nil
}

// Game loads a game, active or archived, with its state opened from the vault.
func (tx *Tx) Game(id uint64) (*Game, error) {
	g, err := tx.rawGame(id)
	if err != nil {
		return nil, err
	}
	if g.Hidden {
		if g.State, err = tx.s.vault.open(stateContext(id), g.State); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// liveGame reads the stored game for a change: it must not be archived, and g must be
// up to date with the log.
func (tx *Tx) liveGame(g *Game) (*Game, error) {
	old, err := tx.rawGame(g.ID)
	if err != nil {
		return nil, err
	}
	if old.Archived {
		return nil, fmt.Errorf("store: game %d: %w", g.ID, ErrArchived)
	}
	if old.Records != g.Records || old.Head != g.Head {
		return nil, fmt.Errorf("store: game %d changed since it was loaded (log has %d records, the value %d); load it again: %w",
			g.ID, old.Records, g.Records, ErrConflict)
	}
	return old, nil
}

// PutGame replaces a game's stored record with g (state, status, deadlines, match key, …)
// and keeps the deadline and match indexes in step. g must have been loaded in, or updated by Append in, this
// transaction's view of the log (else ErrConflict); Hidden cannot change.
func (tx *Tx) PutGame(g *Game) error {
	old, err := tx.liveGame(g)
	if err != nil {
		return err
	}
	if old.Hidden != g.Hidden {
		return fmt.Errorf("store: game %d: the hidden-information flag cannot change: %w", g.ID, ErrInvalid)
	}
	if err := tx.checkGame(g); err != nil {
		return err
	}
	if err := tx.writeGame(g, tx.bucket(bucketGames)); err != nil {
		return err
	}
	if err := tx.indexMatch(g.ID, old.Match, g.Match); err != nil {
		return err
	}
	return tx.indexDeadlines(g.ID, old.Deadlines, g.Deadlines)
}

func (tx *Tx) indexDeadlines(game uint64, old, new []Deadline) error {
	b := tx.bucket(bucketDeadlines)
	for _, dl := range old {
		if err := tx.del(b, deadlineKey(game, dl)); err != nil {
			return err
		}
	}
	for _, dl := range new {
		if err := tx.put(b, deadlineKey(game, dl), nil); err != nil {
			return err
		}
	}
	return nil
}

// Games returns the ids of the games that are not archived, in creation order. It reads
// the keys of every such game: for maintenance and tests, not for each request (Matching
// and DueDeadlines find games without reading the others).
func (tx *Tx) Games() ([]uint64, error) {
	var ids []uint64
	err := tx.bucket(bucketGames).ForEach(func(k, _ []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: games bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k))
		return nil
	})
	return ids, err
}

// ArchivedGames returns the ids of the archived games, in creation order. It reads the key
// of every archived game: for maintenance, such as a one-time rewrite of the service's data.
func (tx *Tx) ArchivedGames() ([]uint64, error) {
	var ids []uint64
	err := tx.bucket(bucketArchive).ForEach(func(k, _ []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: archive bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k))
		return nil
	})
	return ids, err
}

// PutMeta replaces the service data (Game.Meta) of a game, active or archived, and nothing
// else. It is how the service rewrites its own data of games that PutGame no longer takes
// (archived ones), e.g. to drop a value it must no longer keep.
func (tx *Tx) PutMeta(id uint64, meta []byte) error {
	g, err := tx.rawGame(id)
	if err != nil {
		return err
	}
	g.Meta = meta
	b := tx.bucket(bucketGames)
	if g.Archived {
		b = tx.bucket(bucketArchive)
	}
	return tx.put(b, be64(id), encodeGame(g, g.State))
}

// Archive moves a game that is no longer active to the archive and drops its deadlines, its
// match key and both sides' conditional moves. Its log, tokens and players stay; Game still loads it (with Archived set).
func (tx *Tx) Archive(id uint64) error {
	g, err := tx.rawGame(id)
	if err != nil {
		return err
	}
	if g.Archived {
		return fmt.Errorf("store: game %d: %w", id, ErrArchived)
	}
	if g.Status == StatusActive {
		return fmt.Errorf("store: game %d is still active; finish or abort it before archiving: %w", id, ErrInvalid)
	}
	if err := tx.indexDeadlines(id, g.Deadlines, nil); err != nil {
		return err
	}
	if err := tx.indexMatch(id, g.Match, ""); err != nil {
		return err
	}
	if err := tx.dropConditionals(id); err != nil {
		return err
	}
	g.Deadlines, g.Match = nil, ""
	if err := tx.del(tx.bucket(bucketGames), be64(id)); err != nil {
		return err
	}
	// The state stays sealed as it was: encode the raw record.
	archive := tx.bucket(bucketArchive)
	archive.FillPercent = 0.95 // ids only grow
	return tx.put(archive, be64(id), encodeGame(g, g.State))
}

// ---- the log

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
	case e.Kind != KindMove && e.Kind != KindEvent:
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

// ---- players and tokens

// PutPlayer stores a player, assigning p.ID when it is zero, and keeps the player deadline
// index in step with p.Due. The address must be unique (ErrExists otherwise).
func (tx *Tx) PutPlayer(p *Player) error {
	addr := mailfmt.Key(p.Address)
	if addr == "" {
		return fmt.Errorf("store: player %q: address %q is not a mail address: %w", p.Name, p.Address, ErrInvalid)
	}
	if !p.Due.IsZero() {
		if err := validDeadline(Deadline{At: p.Due}); err != nil {
			return fmt.Errorf("store: player %q: %w", p.Address, err)
		}
	}
	players, addrs := tx.bucket(bucketPlayers), tx.bucket(bucketAddresses)
	var oldDue time.Time
	if v := addrs.Get([]byte(addr)); v != nil && (len(v) != 8 || beUint64(v) != p.ID) {
		return fmt.Errorf("store: address %s belongs to another player: %w", p.Address, ErrExists)
	}
	if p.ID == 0 {
		id, err := tx.nextID(players)
		if err != nil {
			return err
		}
		p.ID = id
	} else if old, err := tx.Player(p.ID); err == nil {
		oldDue = old.Due
		if oldAddr := mailfmt.Key(old.Address); oldAddr != addr {
			if err := tx.del(addrs, []byte(oldAddr)); err != nil {
				return err
			}
		}
	} else if !errors.Is(err, ErrNotFound) {
		return err
	} else if p.ID > players.Sequence() {
		return fmt.Errorf("store: player %d was never assigned: %w", p.ID, ErrInvalid)
	}
	if err := tx.put(players, be64(p.ID), encodePlayer(p)); err != nil {
		return err
	}
	if err := tx.indexPlayerDue(p.ID, oldDue, p.Due); err != nil {
		return err
	}
	return tx.put(addrs, []byte(addr), be64(p.ID))
}

// Player loads a player by id.
func (tx *Tx) Player(id uint64) (*Player, error) {
	v := tx.bucket(bucketPlayers).Get(be64(id))
	if v == nil {
		return nil, fmt.Errorf("store: player %d: %w", id, ErrNotFound)
	}
	p, err := decodePlayer(v)
	if err != nil {
		return nil, fmt.Errorf("store: player %d: %w", id, err)
	}
	return p, nil
}

// PlayerByAddress finds the player with a mail address: the address index
// is keyed by mailfmt.Key, the one identity of an address.
func (tx *Tx) PlayerByAddress(addr string) (*Player, error) {
	v := tx.bucket(bucketAddresses).Get([]byte(mailfmt.Key(addr)))
	if len(v) != 8 {
		return nil, fmt.Errorf("store: no player has the address %s: %w", addr, ErrNotFound)
	}
	return tx.Player(beUint64(v))
}

var tokenEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewToken returns a fresh reply token: 128 bits from rand as 26 lowercase base-32
// characters, fit for the local part of a reply address.
func NewToken(rand io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", fmt.Errorf("store: new token: %w", err)
	}
	return strings.ToLower(tokenEncoding.EncodeToString(b[:])), nil
}

func normToken(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

// PutToken stores a reply token for a player's seat in a game. The seat must be the
// player's; a token already standing for another seat gives ErrExists. Only a keyed hash
// of the token is stored (tokenHash), never the token: a copy of the database without the
// key file does not let anyone act for a player.
func (tx *Tx) PutToken(token string, ref TokenRef) error {
	t := normToken(token)
	if t == "" || len(t) > 128 {
		return fmt.Errorf("store: token %q: empty or longer than 128 bytes: %w", token, ErrInvalid)
	}
	g, err := tx.rawGame(ref.Game)
	if err != nil {
		return err
	}
	if !ref.Side.valid() || g.Seats[ref.Side].Player != ref.Player {
		return fmt.Errorf("store: token for player %d as %s in game %d: not that player's seat: %w", ref.Player, ref.Side, ref.Game, ErrInvalid)
	}
	b := tx.bucket(bucketTokens)
	key := tx.s.vault.tokenHash(t)
	if v := b.Get(key); v != nil {
		if old, err := decodeToken(v); err == nil && *old == ref {
			return nil
		}
		return fmt.Errorf("store: the token is taken: %w", ErrExists)
	}
	return tx.put(b, key, encodeToken(&ref))
}

// TokenLookup finds the seat a reply token stands for (compared case-insensitively).
func (tx *Tx) TokenLookup(token string) (TokenRef, error) {
	v := tx.bucket(bucketTokens).Get(tx.s.vault.tokenHash(normToken(token)))
	if v == nil {
		return TokenRef{}, fmt.Errorf("store: token %q: %w", token, ErrNotFound)
	}
	ref, err := decodeToken(v)
	if err != nil {
		return TokenRef{}, err
	}
	return *ref, nil
}

// ---- outbox

// Enqueue puts a mail in the outbox and sets m.ID. Commit it in the transaction that
// causes the mail. Its content is stored sealed: a mail may repeat a secret move to the
// side that made it.
func (tx *Tx) Enqueue(m *Mail) error {
	if len(m.To) == 0 || len(m.Data) == 0 {
		return fmt.Errorf("store: mail without recipients or content: %w", ErrInvalid)
	}
	b := tx.bucket(bucketOutbox)
	id, err := tx.nextID(b)
	if err != nil {
		return err
	}
	m.ID = id
	sealed := *m
	if sealed.Data, err = tx.s.vault.seal(mailContext(m), m.Data); err != nil {
		return err
	}
	return tx.put(b, be64(id), encodeMail(&sealed))
}

// PendingMail lists the mails due at now (NextTry zero or not after now), oldest first, at
// most limit of them (all if limit <= 0).
func (tx *Tx) PendingMail(now time.Time, limit int) ([]Mail, error) {
	var out []Mail
	c := tx.bucket(bucketOutbox).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		m, err := decodeMail(v)
		if err != nil {
			return nil, fmt.Errorf("store: outbox mail %x: %w", k, err)
		}
		if !m.NextTry.IsZero() && m.NextTry.After(now) {
			continue
		}
		if m.Data, err = tx.s.vault.open(mailContext(m), m.Data); err != nil {
			return nil, err
		}
		out = append(out, *m)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}

// MarkSent removes a mail from the outbox. Call it only after the mail server accepted the
// message; if the process dies in between, the mail is sent again (with the same
// Message-ID), never lost.
func (tx *Tx) MarkSent(id uint64) error {
	b := tx.bucket(bucketOutbox)
	if b.Get(be64(id)) == nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, ErrNotFound)
	}
	return tx.del(b, be64(id))
}

// MarkFailed records a failed delivery attempt: it counts it, keeps the reason and sets
// when to try again.
func (tx *Tx) MarkFailed(id uint64, reason string, nextTry time.Time) error {
	b := tx.bucket(bucketOutbox)
	v := b.Get(be64(id))
	if v == nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, ErrNotFound)
	}
	m, err := decodeMail(v)
	if err != nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, err)
	}
	m.Attempts++
	m.LastError = reason
	m.NextTry = nextTry.UTC()
	return tx.put(b, be64(id), encodeMail(m))
}

// ---- processed incoming mail

// processedKey is the first 16 bytes of SHA-256 of the Message-ID without its angle
// brackets: fixed size, whatever the sender chose.
func processedKey(msgID string) ([]byte, error) {
	id := strings.TrimSpace(msgID)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	if id == "" {
		return nil, fmt.Errorf("store: empty message id: %w", ErrInvalid)
	}
	sum := sha256.Sum256([]byte(id))
	return sum[:16], nil
}

// MarkProcessed records that the incoming message msgID was processed at at. If it was
// processed before it returns ErrDuplicate: return that from the transaction, so nothing
// of the mail is applied twice.
func (tx *Tx) MarkProcessed(msgID string, at time.Time) error {
	k, err := processedKey(msgID)
	if err != nil {
		return err
	}
	b := tx.bucket(bucketProcessed)
	if b.Get(k) != nil {
		return fmt.Errorf("store: message %s: %w", msgID, ErrDuplicate)
	}
	return tx.put(b, k, encodeProcessed(at))
}

// Processed reports whether the incoming message msgID was processed.
func (tx *Tx) Processed(msgID string) (bool, error) {
	k, err := processedKey(msgID)
	if err != nil {
		return false, err
	}
	return tx.bucket(bucketProcessed).Get(k) != nil, nil
}

// PruneProcessed forgets the message ids processed before before, and returns how many.
// Keep them longer than any mail can be delayed or redelivered.
func (tx *Tx) PruneProcessed(before time.Time) (int, error) {
	b := tx.bucket(bucketProcessed)
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		at, err := decodeProcessed(v)
		if err != nil {
			return err
		}
		if at.Before(before) {
			old = append(old, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range old {
		if err := tx.del(b, k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// ---- deadlines

// DueDeadlines lists the deadlines at or before before, earliest first, at most limit (all
// if limit <= 0). A game's deadlines change with PutGame.
func (tx *Tx) DueDeadlines(before time.Time, limit int) ([]Due, error) {
	end := before.UTC().AppendFormat(nil, deadlineTimeLayout)
	var out []Due
	c := tx.bucket(bucketDeadlines).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < len(end) || bytes.Compare(k[:len(end)], end) > 0 {
			break
		}
		d, err := decodeDeadlineKey(k)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}
