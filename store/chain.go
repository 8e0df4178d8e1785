package store

// The hash chain over a game's log. This file needs no database: `bottlepost verify` runs
// VerifyChain on an exported game.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

const chainDomain = "bottlepost/chain/v1"

// ChainStart is the head of a game's chain before its first record:
// SHA-256 of the length-prefixed (domain "bottlepost/chain/v1", game id). Binding the game id
// keeps a whole log from being passed off as another game's.
func ChainStart(game uint64) Digest {
	return sha256.Sum256(lengthPrefixed([]byte(chainDomain), be64(game)))
}

// chainNext is the head after a record: SHA-256(previous head || record encoding). The
// encoding holds everything stored for the record, the sealed ciphertext and the commitment
// of a secret move included.
func chainNext(prev Digest, body []byte) Digest {
	h := sha256.New()
	h.Write(prev[:])
	h.Write(body)
	var d Digest
	h.Sum(d[:0])
	return d
}

// Link is one log record as the chain covers it: its stored encoding and the head after it.
type Link struct {
	Body []byte // the record's stored encoding
	Hash Digest // the chain head after it
}

// Receipt is a chain head that a player was sent: the head after the game's first Records
// records. Every mail about a game quotes one.
type Receipt struct {
	Records uint32 // how many records the head covers
	Head    Digest // the head quoted
	// Uncounted marks a head quoted without its record count, as the mails did before they
	// quoted RECORDS:HEAD ("Record chain head: HEAD (keep it as your receipt)"). VerifyChain
	// ignores Records then (ParseReceipt leaves it 0): the receipt holds when Head is the
	// chain's head after any number of records (none included), and covers that many.
	Uncounted bool
}

// String is the receipt as the mails quote it and verify takes it: RECORDS:HEAD, the
// record count in decimal and the head in 64 lowercase hex digits; an uncounted receipt is
// the head alone.
func (r Receipt) String() string {
	if r.Uncounted {
		return r.Head.String()
	}
	return strconv.FormatUint(uint64(r.Records), 10) + ":" + r.Head.String()
}

// ParseReceipt reads a receipt as String writes it (RECORDS:HEAD), or a head alone (64 hex
// digits) as the mails quoted it before they gave the record count (Uncounted); surrounding
// spaces and upper-case hex digits are accepted.
func ParseReceipt(s string) (Receipt, error) {
	t := strings.TrimSpace(s)
	n, head, ok := strings.Cut(t, ":")
	if !ok {
		if d, err := ParseDigest(t); err == nil {
			return Receipt{Head: d, Uncounted: true}, nil
		}
		return Receipt{}, fmt.Errorf("store: receipt %q: want RECORDS:HEAD, as quoted in the mails (or the 64 hex digits of a head alone, as older mails quoted it): %w", s, ErrInvalid)
	}
	recs, err := strconv.ParseUint(n, 10, 32)
	if err != nil || n == "" || n[0] == '+' || (len(n) > 1 && n[0] == '0') {
		return Receipt{}, fmt.Errorf("store: receipt %q: %q is not a record count: %w", s, n, ErrInvalid)
	}
	d, err := ParseDigest(head)
	if err != nil {
		return Receipt{}, fmt.Errorf("store: receipt %q: the head is not 64 hex digits: %w", s, ErrInvalid)
	}
	return Receipt{Records: uint32(recs), Head: d}, nil
}

// VerifyChain checks the records of a game, in log order, against their hashes and against
// the receipts (heads the players were sent, the game's own head among them). It returns the
// head after the last record. Any altered, removed, reordered or inserted record is reported
// as a *ChainError (errors.Is ErrTampered) naming the record and its ply:
//   - a record whose index is not its position: one was removed, inserted or moved;
//   - a record whose hash is not SHA-256(previous head || record): it, or an earlier one, was
//     altered;
//   - a receipt that disagrees with the head at its position: history was rewritten, or the
//     records it covers are gone.
func VerifyChain(game uint64, links []Link, receipts ...Receipt) (Digest, error) {
	heads, err := walkChain(game, len(links), func(i int) ([]byte, []byte) { return links[i].Body, links[i].Hash[:] }, receipts)
	if err != nil {
		return Digest{}, err
	}
	if len(heads) == 0 {
		return ChainStart(game), nil
	}
	return heads[len(heads)-1], nil
}

// walkChain is VerifyChain over n records given by record(i): the record's encoding and its
// check, which is its whole hash or (in the database) the first bytes of it. It returns the
// head after each record.
func walkChain(game uint64, n int, record func(i int) (body, check []byte), receipts []Receipt) ([]Digest, error) {
	head := ChainStart(game)
	fail := func(i int, r *rawRecord, format string, args ...any) ([]Digest, error) {
		e := &ChainError{Game: game, Index: uint32(i), Reason: fmt.Sprintf(format, args...)}
		if r != nil {
			e.Ply, e.HasPly = r.Ply, true
		}
		return nil, e
	}
	for _, rc := range receipts {
		if rc.Records == 0 && !rc.Uncounted && rc.Head != head {
			return fail(0, nil, "a receipt quotes %s before the first record, but the game's chain starts at %s",
				rc.Head.Short(), head.Short())
		}
	}
	heads := make([]Digest, 0, n)
	for i := range n {
		body, check := record(i)
		r, err := decodeRecord(body)
		if err != nil {
			return fail(i, nil, "the record does not decode (%v)", err)
		}
		if int(r.Index) != i {
			return fail(i, r, "the record there is number %d: records were removed, inserted or reordered", r.Index)
		}
		head = chainNext(head, body)
		if len(check) == 0 || !bytes.Equal(head[:len(check)], check) {
			return fail(i, r, "its hash does not match its content: this record or an earlier one was altered")
		}
		heads = append(heads, head)
		for _, rc := range receipts {
			if int(rc.Records) == i+1 && !rc.Uncounted && rc.Head != head {
				return fail(i, r, "the head after %d records is %s but a receipt quotes %s: the log was rewritten",
					i+1, head.Short(), rc.Head.Short())
			}
		}
	}
	for _, rc := range receipts {
		if int(rc.Records) > n {
			return fail(n, nil, "the log ends after %d records but a receipt quotes %d: records were removed", n, rc.Records)
		}
		if rc.Uncounted && rc.Head != ChainStart(game) && !slices.Contains(heads, rc.Head) {
			return fail(n, nil, "a receipt quotes the head %s, which is the head after none of the game's %d records: the log was rewritten (or the receipt is another game's)",
				rc.Head.Short(), n)
		}
	}
	return heads, nil
}
