package store

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// ExportFormat names the layout of an exported game.
const ExportFormat = "bottlepost-export/1"

// Export is a finished game with everything a player needs to check it: every log record
// exactly as hashed, the chain hashes, the commitments and their openings. It encodes as
// JSON; VerifyExport checks it without the database or the key.
type Export struct {
	Format  string         `json:"format"`
	Game    ExportGame     `json:"game"`
	Records []ExportRecord `json:"records"`
}

// ExportGame describes the exported game.
type ExportGame struct {
	ID          uint64    `json:"id"`
	Variant     string    `json:"variant"`
	Ruleset     string    `json:"ruleset"`
	TimeControl string    `json:"time_control,omitempty"`
	Players     [2]string `json:"players"` // names, White then Black
	Status      string    `json:"status"`
	Result      string    `json:"result,omitempty"`
	Hidden      bool      `json:"hidden"`
	Created     time.Time `json:"created"`
	Records     uint32    `json:"records"`
	Head        Digest    `json:"head"`
}

// ExportRecord is one log record. Record is the stored encoding the chain covers; the other
// fields repeat it readably, with the sealed parts revealed.
type ExportRecord struct {
	Index      uint32    `json:"index"`
	Ply        uint32    `json:"ply"`
	Side       Side      `json:"side"`
	Kind       Kind      `json:"kind"`
	At         time.Time `json:"at"`
	Secret     bool      `json:"secret,omitempty"`
	Text       string    `json:"text"`
	Public     string    `json:"public,omitempty"`
	Lines      [2]string `json:"lines"`
	Commitment *Digest   `json:"commitment,omitempty"`
	Opening    *Opening  `json:"opening,omitempty"`
	Record     []byte    `json:"record"`
	Hash       Digest    `json:"hash"`
}

// Export returns a game that is no longer active, with the openings of its secret moves.
// An active game is refused (ErrInvalid): its secret moves stay sealed until it ends. The
// game's state and the players' addresses are not exported.
func (tx *Tx) Export(id uint64) (*Export, error) {
	g, err := tx.rawGame(id)
	if err != nil {
		return nil, err
	}
	if g.Status == StatusActive {
		return nil, fmt.Errorf("store: game %d is still being played; its secret moves stay sealed until it ends: %w", id, ErrInvalid)
	}
	recs, err := tx.Log(id) // verifies the chain, the sealed parts and the commitments
	if err != nil {
		return nil, err
	}
	x := &Export{Format: ExportFormat, Game: ExportGame{
		ID: id, Variant: g.Variant, Ruleset: g.Ruleset, TimeControl: g.TimeControl,
		Status: g.Status.String(), Result: g.Result, Hidden: g.Hidden, Created: g.Created,
		Records: g.Records, Head: g.Head,
	}}
	for i, seat := range g.Seats {
		p, err := tx.Player(seat.Player)
		if err != nil {
			return nil, err
		}
		x.Game.Players[i] = p.Name
	}
	for _, r := range recs {
		er := ExportRecord{Index: r.Index, Ply: r.Ply, Side: r.Side, Kind: r.Kind, At: r.At, Secret: r.Secret,
			Text: r.Text, Public: r.Public, Lines: r.Lines, Opening: r.Opening, Record: r.body, Hash: r.Hash}
		if r.Secret {
			c := r.Commitment
			er.Commitment = &c
		}
		x.Records = append(x.Records, er)
	}
	return x, nil
}

// VerifyExport checks an exported game: the hash chain over the records (against the
// game's head and any receipts the player kept from the mails), every commitment against its
// opening, and that the readable fields agree with the hashed records. It needs neither the
// database nor the key. Chain problems are *ChainError; all problems match ErrTampered.
func VerifyExport(x *Export, receipts ...Receipt) error {
	if x.Format != ExportFormat {
		return fmt.Errorf("store: export format %q, want %q: %w", x.Format, ExportFormat, ErrInvalid)
	}
	id := x.Game.ID
	links := make([]Link, len(x.Records))
	for i, r := range x.Records {
		links[i] = Link{Body: r.Record, Hash: r.Hash}
	}
	all := append([]Receipt{{Records: x.Game.Records, Head: x.Game.Head}}, receipts...)
	if _, err := VerifyChain(id, links, all...); err != nil {
		return err
	}
	if len(links) != int(x.Game.Records) {
		return &ChainError{Game: id, Index: uint32(len(links)),
			Reason: fmt.Sprintf("the export has %d records, the game %d", len(links), x.Game.Records)}
	}
	var errs []error
	for _, r := range x.Records {
		raw, err := decodeRecord(r.Record) // decoded by VerifyChain already
		if err != nil {
			return err
		}
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("store: game %d record %d (ply %d): %s: %w", id, raw.Index, raw.Ply, fmt.Sprintf(format, args...), ErrTampered))
		}
		if r.Index != raw.Index || r.Ply != raw.Ply || r.Side != raw.Side || r.Kind != raw.Kind ||
			r.Secret != raw.Secret || r.Public != raw.Public || !r.At.Equal(raw.At) {
			bad("the readable fields differ from the hashed record")
		}
		if raw.Sealed == nil && (r.Text != raw.Text || r.Lines != raw.lines()) {
			bad("the text or lines differ from the hashed record")
		}
		for i, same := range raw.SamePublic {
			if raw.Sealed != nil && same && r.Lines[i] != raw.Public {
				bad("the hashed record gives side %d the public line, but the export shows it another", i)
			}
		}
		if raw.Secret {
			switch {
			case raw.Text != "":
				bad("a secret move's record holds the text %q in the clear (a secret move's text is sealed)", raw.Text)
			case raw.Kind != KindMove:
				bad("a record that is not a move is marked secret")
			case raw.Sealed == nil:
				bad("a secret move's record has no sealed part")
			case r.Opening == nil:
				bad("secret move without an opening")
			case !VerifyCommitment(id, raw.Ply, raw.Side, raw.Commitment, *r.Opening):
				bad("the opening does not open the commitment %s", raw.Commitment.Short())
			case r.Opening.Text != r.Text:
				bad("the revealed text %q is not the committed %q", r.Text, r.Opening.Text)
			}
		} else if raw.Sealed != nil && r.Text != raw.Text {
			bad("the text differs from the hashed record")
		}
		if r.Commitment != nil && (!raw.Secret || !bytes.Equal(r.Commitment[:], raw.Commitment[:])) {
			bad("the commitment differs from the hashed record")
		}
	}
	return errors.Join(errs...)
}
