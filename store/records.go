package store

import (
	"fmt"
	"time"
)

// Format bytes of the stored records. A change of layout gets a new byte and a decoder for
// the old one (see migrate.go).
const (
	gameFormat    = 1 // a game not listed under a match key
	gameMatched   = 2 // gameFormat followed by Game.Match (only when it is not empty)
	recordFormat  = 1
	secretFormat  = 1
	playerFormat  = 1 // a player without a deadline
	playerDue     = 2 // playerFormat followed by Player.Due (only when it is set)
	tokenFormat   = 1
	mailFormat    = 1
	processFormat = 1
	welcomeFormat = 1
)

// Status is where a game stands.
type Status uint8

// Game statuses. Only a game that is not active can be archived or exported.
const (
	StatusActive   Status = 0
	StatusFinished Status = 1
	StatusAborted  Status = 2
)

// String returns "active", "finished" or "aborted".
func (s Status) String() string {
	switch s {
	case StatusActive:
		return "active"
	case StatusFinished:
		return "finished"
	case StatusAborted:
		return "aborted"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Seat is one side's player in a game and the address this game's mail goes to.
type Seat struct {
	Player  uint64
	Address string
}

// DeadlineKind tells the game service what a deadline is for. The store does not interpret it.
type DeadlineKind uint8

// Suggested deadline kinds.
const (
	DeadlineReminder DeadlineKind = 1
	DeadlineTimeout  DeadlineKind = 2
)

// Deadline is an absolute instant at which the game service must act on a game.
type Deadline struct {
	At   time.Time
	Kind DeadlineKind
}

// Due is a deadline found in the deadline index.
type Due struct {
	Game uint64
	Deadline
}

// Game is everything the store keeps about a game. The caller sets the fields above the
// line; Records, Head and Archived are the store's and change only through Append and Archive.
type Game struct {
	ID          uint64  // assigned by CreateGame
	Variant     string  // e.g. "seachess"
	Ruleset     string  // ruleset version the game is played under, e.g. "seachess/1"
	TimeControl string  // the game service's time-control spec; opaque to the store
	Seats       [2]Seat // indexed by Side: White, Black
	Status      Status
	Result      string // e.g. "1-0", "0-1", "1/2-1/2"; empty while active
	// Hidden is set for variants with hidden information. Then State is sealed in the vault,
	// and so are the per-side record lines and the text of secret moves. It cannot change
	// after CreateGame.
	Hidden      bool
	State       []byte // the rules engine's State.MarshalBinary; opaque and versioned by it
	PublicState []byte // a part of the state any viewer may see; stored in the clear
	// Meta is the game service's own data about the game (clocks, draw offers, observers,
	// reply tokens, thread ids): opaque to the store, stored in the clear, versioned by the
	// service. It must hold nothing a side may not see.
	Meta []byte
	// Deadlines of this game. PutGame keeps the deadline index in step with this list.
	Deadlines []Deadline
	// Match lists the game under a key of the service's choosing while it is not empty,
	// e.g. the terms of an open challenge that waits for an opponent: Matching(key) finds
	// it without reading any other game. CreateGame and PutGame keep the match index in
	// step with it; Archive empties it. Opaque to the store, stored in the clear, at most
	// MaxMatch bytes.
	Match   string
	Created time.Time
	Updated time.Time

	// Records is the number of log records (the next record's index).
	Records uint32
	// Head is the hash chain's head after the last record; quote it in every mail.
	Head Digest
	// Archived is true when the game was loaded from the archive.
	Archived bool
}

// Kind is the kind of a log record.
type Kind uint8

// Log record kinds.
const (
	KindMove  Kind = 1 // a move, public or secret
	KindEvent Kind = 2 // anything else on the record: resignation, draw agreed, timeout, result
	// KindTakeback takes back the move before it that stands, by the same side at the same
	// ply, with the opponent's consent: the position returns to before that move.
	KindTakeback Kind = 3
)

// known says whether k is a kind of record the store writes.
func (k Kind) known() bool { return k == KindMove || k == KindEvent || k == KindTakeback }

// Entry is what the game service appends to a game's log.
type Entry struct {
	Kind Kind
	Ply  uint32 // the game's ply (half-move) this record belongs to
	Side Side   // the side that moved or acted
	// Text is the move in canonical notation, or the event's text. For a secret move it is
	// sealed in the vault and committed to.
	Text string
	// Secret marks a hidden move (only in a Hidden game).
	Secret bool
	// Public is the record line any viewer may see, e.g. "(h)" for a hidden move. Clear.
	Public string
	// Lines are the record lines each side sees (index White, Black). In a Hidden game they are
	// sealed, as they may carry what the other side may not see.
	Lines [2]string
	At    time.Time // when it was accepted; required
}

// Record is a log record as read back: the entry (with sealed parts opened), its place in the
// log, the commitment to a secret move and the chain hash after it.
type Record struct {
	Entry
	Game       uint64
	Index      uint32 // position in the game's log, from 0
	Sealed     bool   // parts of the record are stored sealed
	Commitment Digest // for a secret move; zero otherwise
	// Opening opens Commitment; set for secret moves. Keep it from players until the game
	// ends.
	Opening *Opening
	Hash    Digest // chain head after this record
	body    []byte // the stored, hashed encoding
}

// Player is a person who plays by mail.
type Player struct {
	ID      uint64 // assigned by PutPlayer when zero
	Name    string
	Address string // unique over all players, compared case-insensitively
	Created time.Time
	// Meta is the game service's own data about the player (time zone, vacation, game
	// list): opaque to the store, versioned by the service.
	Meta []byte
	// Due is when the game service must next act for the player (a daily digest), or zero
	// for never. PutPlayer keeps the player deadline index in step with it; DuePlayers
	// finds the players due without reading the others.
	Due time.Time
}

// TokenRef is what a reply token stands for: a player's seat in a game.
type TokenRef struct {
	Game   uint64
	Player uint64
	Side   Side
}

// Mail is a message waiting in the outbox.
type Mail struct {
	ID        uint64    // assigned by Enqueue
	Game      uint64    // the game it is about, 0 if none
	From      string    // envelope sender
	To        []string  // envelope recipients
	Data      []byte    // the whole RFC 5322 message, headers included, with a fixed Message-ID
	Created   time.Time // when it was queued
	Attempts  uint32    // failed delivery attempts so far
	NextTry   time.Time // not before; zero means at once
	LastError string    // the reason the last failed attempt gave (RecordAttempt)
}

// rawRecord is a log record exactly as stored and hashed: sealed parts stay ciphertext.
type rawRecord struct {
	Kind       Kind
	Side       Side
	Secret     bool
	Index      uint32
	Ply        uint32
	At         time.Time
	Text       string // clear text; empty when secret
	Public     string
	Lines      [2]string // clear lines; empty when sealed or the same as Public
	SamePublic [2]bool   // the side's line is the Public line (stored once)
	Commitment Digest    // when Secret
	Sealed     []byte    // when parts are sealed
}

const (
	flagSecret      = 1 << 0
	flagSealed      = 1 << 1
	flagWhitePublic = 1 << 2 // White's line is the Public line
	flagBlackPublic = 1 << 3 // Black's line is the Public line
	recordFlags     = flagSecret | flagSealed | flagWhitePublic | flagBlackPublic
)

// lines returns the record's clear lines, with the ones marked SamePublic filled in.
func (r *rawRecord) lines() [2]string {
	l := r.Lines
	for i, same := range r.SamePublic {
		if same {
			l[i] = r.Public
		}
	}
	return l
}

func encodeRecord(r *rawRecord) []byte {
	e := enc{b: make([]byte, 0, 64+len(r.Text)+len(r.Public)+len(r.Lines[0])+len(r.Lines[1])+len(r.Sealed))}
	e.u8(recordFormat)
	e.u8(uint8(r.Kind))
	var flags uint8
	if r.Secret {
		flags |= flagSecret
	}
	if r.Sealed != nil {
		flags |= flagSealed
	}
	if r.SamePublic[White] {
		flags |= flagWhitePublic
	}
	if r.SamePublic[Black] {
		flags |= flagBlackPublic
	}
	e.u8(flags)
	e.u8(uint8(r.Side))
	e.uvarint(uint64(r.Index))
	e.uvarint(uint64(r.Ply))
	e.time(r.At)
	e.str(r.Text)
	e.str(r.Public)
	for i, same := range r.SamePublic {
		if !same {
			e.str(r.Lines[i])
		}
	}
	if r.Secret {
		e.digest(r.Commitment)
	}
	if r.Sealed != nil {
		e.bytes(r.Sealed)
	}
	return e.b
}

func decodeRecord(b []byte) (*rawRecord, error) {
	d := dec{b: b}
	r := new(rawRecord)
	if v := d.u8(); d.err == nil && v != recordFormat {
		return nil, fmt.Errorf("store: log record has format %d, want %d: %w", v, recordFormat, ErrCorrupt)
	}
	r.Kind = Kind(d.u8())
	flags := d.u8()
	r.Side = Side(d.u8())
	r.Index = d.uint32v()
	r.Ply = d.uint32v()
	r.At = d.time()
	r.Text = d.str()
	r.Public = d.str()
	r.SamePublic = [2]bool{flags&flagWhitePublic != 0, flags&flagBlackPublic != 0}
	for i, same := range r.SamePublic {
		if !same {
			r.Lines[i] = d.str()
		}
	}
	r.Secret = flags&flagSecret != 0
	if r.Secret {
		r.Commitment = d.digest()
	}
	if flags&flagSealed != 0 {
		r.Sealed = d.bytes()
		if r.Sealed == nil {
			d.fail(errBad)
		}
	}
	if flags&^recordFlags != 0 || !r.Kind.known() || !r.Side.valid() {
		d.fail(errBad)
	}
	if err := canonical(&d, b, func() []byte { return encodeRecord(r) }); err != nil {
		return nil, fmt.Errorf("store: log record: %w", err)
	}
	return r, nil
}

// canonical finishes a decode: no failure, no trailing bytes, and the input is the one
// encoding of what was read.
func canonical(d *dec, in []byte, reencode func() []byte) error {
	if err := d.done(); err != nil {
		return fmt.Errorf("%v: %w", err, ErrCorrupt)
	}
	if string(reencode()) != string(in) {
		return fmt.Errorf("not in canonical form: %w", ErrCorrupt)
	}
	return nil
}

// secretPart is the sealed part of a log record.
type secretPart struct {
	Text  string    // the secret move's text; empty for a public record
	Lines [2]string // the lines not marked SamePublic
	Key   *[32]byte // commitment key of a secret move
}

func encodeSecret(p *secretPart) []byte {
	var e enc
	e.u8(secretFormat)
	e.str(p.Text)
	e.str(p.Lines[0])
	e.str(p.Lines[1])
	e.boolean(p.Key != nil)
	if p.Key != nil {
		e.fixed(p.Key[:])
	}
	return e.b
}

func decodeSecret(b []byte) (*secretPart, error) {
	d := dec{b: b}
	p := new(secretPart)
	if v := d.u8(); d.err == nil && v != secretFormat {
		d.fail(errBad)
	}
	p.Text = d.str()
	p.Lines[0] = d.str()
	p.Lines[1] = d.str()
	if d.boolean() {
		p.Key = new([32]byte)
		copy(p.Key[:], d.fixed(32))
	}
	if err := canonical(&d, b, func() []byte { return encodeSecret(p) }); err != nil {
		return nil, fmt.Errorf("store: sealed record part: %w", err)
	}
	return p, nil
}

// encodeGame encodes g with state as given (already sealed for a hidden game).
func encodeGame(g *Game, state []byte) []byte {
	e := enc{b: make([]byte, 0, 160+len(state)+len(g.PublicState)+len(g.Meta)+len(g.Match))}
	if g.Match != "" {
		e.u8(gameMatched)
	} else {
		e.u8(gameFormat)
	}
	e.uvarint(g.ID)
	e.str(g.Variant)
	e.str(g.Ruleset)
	e.str(g.TimeControl)
	for _, s := range g.Seats {
		e.uvarint(s.Player)
		e.str(s.Address)
	}
	e.u8(uint8(g.Status))
	e.str(g.Result)
	e.boolean(g.Hidden)
	e.time(g.Created)
	e.time(g.Updated)
	e.uvarint(uint64(g.Records))
	e.digest(g.Head)
	e.uvarint(uint64(len(g.Deadlines)))
	for _, dl := range g.Deadlines {
		e.time(dl.At)
		e.u8(uint8(dl.Kind))
	}
	e.bytes(g.PublicState)
	e.bytes(state)
	e.bytes(g.Meta)
	if g.Match != "" {
		e.str(g.Match)
	}
	return e.b
}

// decodeGame decodes a stored game; its State is as stored (sealed for a hidden game).
func decodeGame(b []byte) (*Game, error) {
	d := dec{b: b}
	g := new(Game)
	format := d.u8()
	if d.err == nil && format != gameFormat && format != gameMatched {
		return nil, fmt.Errorf("store: game record has format %d, want %d or %d: %w", format, gameFormat, gameMatched, ErrCorrupt)
	}
	g.ID = d.uvarint()
	g.Variant = d.str()
	g.Ruleset = d.str()
	g.TimeControl = d.str()
	for i := range g.Seats {
		g.Seats[i].Player = d.uvarint()
		g.Seats[i].Address = d.str()
	}
	g.Status = Status(d.u8())
	g.Result = d.str()
	g.Hidden = d.boolean()
	g.Created = d.time()
	g.Updated = d.time()
	g.Records = d.uint32v()
	g.Head = d.digest()
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail(errShort)
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		g.Deadlines = append(g.Deadlines, Deadline{At: d.time(), Kind: DeadlineKind(d.u8())})
	}
	g.PublicState = d.bytes()
	state := d.bytes()
	g.Meta = d.bytes()
	if format == gameMatched {
		g.Match = d.str() // an empty one is not canonical: such a record has format 1
	}
	if err := canonical(&d, b, func() []byte { return encodeGame(g, state) }); err != nil {
		return nil, fmt.Errorf("store: game record: %w", err)
	}
	g.State = state
	return g, nil
}

func encodePlayer(p *Player) []byte {
	var e enc
	if p.Due.IsZero() {
		e.u8(playerFormat)
	} else {
		e.u8(playerDue)
	}
	e.uvarint(p.ID)
	e.str(p.Name)
	e.str(p.Address)
	e.time(p.Created)
	e.bytes(p.Meta)
	if !p.Due.IsZero() {
		e.time(p.Due)
	}
	return e.b
}

func decodePlayer(b []byte) (*Player, error) {
	d := dec{b: b}
	p := new(Player)
	format := d.u8()
	if d.err == nil && format != playerFormat && format != playerDue {
		d.fail(errBad)
	}
	p.ID = d.uvarint()
	p.Name = d.str()
	p.Address = d.str()
	p.Created = d.time()
	p.Meta = d.bytes()
	if format == playerDue {
		p.Due = d.time()
	}
	if err := canonical(&d, b, func() []byte { return encodePlayer(p) }); err != nil {
		return nil, fmt.Errorf("store: player record: %w", err)
	}
	return p, nil
}

func encodeToken(t *TokenRef) []byte {
	var e enc
	e.u8(tokenFormat)
	e.uvarint(t.Game)
	e.uvarint(t.Player)
	e.u8(uint8(t.Side))
	return e.b
}

func decodeToken(b []byte) (*TokenRef, error) {
	d := dec{b: b}
	t := new(TokenRef)
	if v := d.u8(); d.err == nil && v != tokenFormat {
		d.fail(errBad)
	}
	t.Game = d.uvarint()
	t.Player = d.uvarint()
	t.Side = Side(d.u8())
	if !t.Side.valid() {
		d.fail(errBad)
	}
	if err := canonical(&d, b, func() []byte { return encodeToken(t) }); err != nil {
		return nil, fmt.Errorf("store: token record: %w", err)
	}
	return t, nil
}

func encodeMail(m *Mail) []byte {
	e := enc{b: make([]byte, 0, 64+len(m.Data))}
	e.u8(mailFormat)
	e.uvarint(m.ID)
	e.uvarint(m.Game)
	e.str(m.From)
	e.strs(m.To)
	e.bytes(m.Data)
	e.time(m.Created)
	e.uvarint(uint64(m.Attempts))
	e.time(m.NextTry)
	e.str(m.LastError)
	return e.b
}

func decodeMail(b []byte) (*Mail, error) {
	d := dec{b: b}
	m := new(Mail)
	if v := d.u8(); d.err == nil && v != mailFormat {
		d.fail(errBad)
	}
	m.ID = d.uvarint()
	m.Game = d.uvarint()
	m.From = d.str()
	m.To = d.strs()
	m.Data = d.bytes()
	m.Created = d.time()
	m.Attempts = d.uint32v()
	m.NextTry = d.time()
	m.LastError = d.str()
	if err := canonical(&d, b, func() []byte { return encodeMail(m) }); err != nil {
		return nil, fmt.Errorf("store: outbox record: %w", err)
	}
	return m, nil
}

// The processed-mail value: when the message was processed.
func encodeProcessed(at time.Time) []byte {
	var e enc
	e.u8(processFormat)
	e.time(at)
	return e.b
}

func decodeProcessed(b []byte) (time.Time, error) {
	d := dec{b: b}
	if v := d.u8(); d.err == nil && v != processFormat {
		d.fail(errBad)
	}
	at := d.time()
	if err := canonical(&d, b, func() []byte { return encodeProcessed(at) }); err != nil {
		return time.Time{}, fmt.Errorf("store: processed record: %w", err)
	}
	return at, nil
}

// The welcomes value: how many welcomes an address was counted on a day.
func encodeWelcomes(n uint64) []byte {
	var e enc
	e.u8(welcomeFormat)
	e.uvarint(n)
	return e.b
}

func decodeWelcomes(b []byte) (uint64, error) {
	d := dec{b: b}
	if v := d.u8(); d.err == nil && v != welcomeFormat {
		d.fail(errBad)
	}
	n := d.uvarint()
	if err := canonical(&d, b, func() []byte { return encodeWelcomes(n) }); err != nil {
		return 0, fmt.Errorf("store: welcomes record: %w", err)
	}
	return n, nil
}

// deadlineTimeLayout is fixed-width RFC 3339 in UTC with nanoseconds, so byte order is time
// order for years 0001 to 9999.
const deadlineTimeLayout = "2006-01-02T15:04:05.000000000Z"

// deadlineKey is the instant, the game id (big-endian) and the kind.
func deadlineKey(game uint64, dl Deadline) []byte {
	k := make([]byte, 0, len(deadlineTimeLayout)+9)
	k = dl.At.UTC().AppendFormat(k, deadlineTimeLayout)
	k = append(k, be64(game)...)
	return append(k, byte(dl.Kind))
}

func decodeDeadlineKey(k []byte) (Due, error) {
	n := len(deadlineTimeLayout)
	if len(k) != n+9 {
		return Due{}, fmt.Errorf("store: deadline key %q: %w", k, ErrCorrupt)
	}
	at, err := time.Parse(deadlineTimeLayout, string(k[:n]))
	if err != nil {
		return Due{}, fmt.Errorf("store: deadline key %q: %w", k, ErrCorrupt)
	}
	var game uint64
	for _, c := range k[n : n+8] {
		game = game<<8 | uint64(c)
	}
	return Due{Game: game, Deadline: Deadline{At: at, Kind: DeadlineKind(k[n+8])}}, nil
}

func validDeadline(dl Deadline) error {
	if y := dl.At.UTC().Year(); y < 1970 || y > 9999 {
		return fmt.Errorf("store: deadline %v is out of range (years 1970 to 9999): %w", dl.At, ErrInvalid)
	}
	return nil
}
