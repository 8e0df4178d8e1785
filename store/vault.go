package store

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/crypto/chacha20poly1305"
)

// The vault seals what a side may not see: the text of secret moves, the per-side record
// lines of hidden games, the whole state of hidden games, and the content of outbox mails
// (a mail to the side that made a secret move repeats it). A 32-byte master key lives in a
// file of its own (mode 0600) beside the database; each game has its own key, derived by
// HKDF-SHA256 from the master key. Sealing is XChaCha20-Poly1305 with a random 24-byte nonce
// and associated data that name the game, the record, its ply and side and the format, so a
// sealed value cannot be moved to another game, record or side.

const (
	masterKeySize = 32
	vaultFormat   = 1
	vaultDomain   = "bottlepost/vault/v1"
	gameKeyInfo   = "bottlepost game key v1"
	keyCheckInfo  = "bottlepost key check v1"
	tokenKeyInfo  = "bottlepost token index v1"
	// welcomeKeyInfo derives the key of the welcomes bucket's address hashes (schema 5).
	welcomeKeyInfo = "bottlepost welcome index v1"
	sideNone       = 0xff // the side field of the associated data for a game's state
)

type vault struct {
	master   [masterKeySize]byte
	tokens   indexKey // the token index key (tokenHash)
	welcomes indexKey // the welcome index key (welcomeHash)
}

// indexKey is a key an index of the store hashes its keys under: HKDF-SHA256(master, salt =
// nil, info), derived on first use.
type indexKey struct {
	once sync.Once
	key  []byte
}

// hash is HMAC-SHA256 of data under the index key derived for info.
func (k *indexKey) hash(master []byte, info, data string) []byte {
	k.once.Do(func() {
		var err error
		if k.key, err = hkdf.Key(sha256.New, master, nil, info, 32); err != nil {
			panic("store: hkdf: " + err.Error())
		}
	})
	m := hmac.New(sha256.New, k.key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// tokenHash is the key of a reply token in the tokens bucket: HMAC-SHA256 of the token
// (normalised: trimmed, lower case) under HKDF-SHA256(master, salt = nil, info = "bottlepost
// token index v1"). The bucket never holds a token itself.
func (v *vault) tokenHash(token string) []byte {
	return v.tokens.hash(v.master[:], tokenKeyInfo, token)
}

// welcomeHash is the address part of a key of the welcomes bucket: the first 16 bytes of
// HMAC-SHA256 of the address (its mailfmt.Key) under HKDF-SHA256(master, salt = nil, info =
// "bottlepost welcome index v1"). Who was welcomed is not in the clear: a copy of the
// database without the key does not confirm that an address wrote to the service.
func (v *vault) welcomeHash(addr string) []byte {
	return v.welcomes.hash(v.master[:], welcomeKeyInfo, addr)[:16]
}

// gameKey derives game's key: HKDF-SHA256(master, salt=nil, info="bottlepost game key v1"||id).
func (v *vault) gameKey(game uint64) []byte {
	k, err := hkdf.Key(sha256.New, v.master[:], nil, gameKeyInfo+string(be64(game)), chacha20poly1305.KeySize)
	if err != nil {
		panic("store: hkdf: " + err.Error()) // only for lengths out of range; ours is fixed
	}
	return k
}

// keyCheck is a value stored in the database that tells whether a key file belongs to it.
// It is derived with its own HKDF info, so it reveals nothing about the game keys.
func (v *vault) keyCheck() []byte {
	k, err := hkdf.Key(sha256.New, v.master[:], nil, keyCheckInfo, 16)
	if err != nil {
		panic("store: hkdf: " + err.Error())
	}
	return k
}

// sealContext is what a sealed value is bound to.
type sealContext struct {
	purpose string // "record", "state", "mail" or "conditional"
	game    uint64
	index   uint64 // record index or mail id
	ply     uint32
	side    uint8
}

func (c sealContext) ad() []byte {
	return lengthPrefixed(
		[]byte(vaultDomain),
		[]byte(c.purpose),
		be64(c.game),
		be64(c.index),
		binary.BigEndian.AppendUint32(nil, c.ply),
		[]byte{c.side},
		[]byte{vaultFormat},
	)
}

func (c sealContext) String() string {
	switch c.purpose {
	case "state":
		return fmt.Sprintf("game %d state", c.game)
	case "mail":
		return fmt.Sprintf("outbox mail %d", c.index)
	case "conditional":
		return fmt.Sprintf("game %d conditional moves of %s", c.game, Side(c.side))
	}
	return fmt.Sprintf("game %d record %d (ply %d, %s)", c.game, c.index, c.ply, Side(c.side))
}

// seal returns format byte || nonce || ciphertext.
func (v *vault) seal(c sealContext, plain []byte) ([]byte, error) {
	aead, err := chacha20poly1305.NewX(v.gameKey(c.game))
	if err != nil {
		return nil, fmt.Errorf("store: vault: %w", err)
	}
	out := make([]byte, 1+aead.NonceSize(), 1+aead.NonceSize()+len(plain)+aead.Overhead())
	out[0] = vaultFormat
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("store: vault nonce: %w", err)
	}
	return aead.Seal(out, out[1:], plain, c.ad()), nil
}

// open authenticates and decrypts a sealed value; any change to it, a wrong key or a wrong
// context gives ErrTampered.
func (v *vault) open(c sealContext, sealed []byte) ([]byte, error) {
	aead, err := chacha20poly1305.NewX(v.gameKey(c.game))
	if err != nil {
		return nil, fmt.Errorf("store: vault: %w", err)
	}
	if len(sealed) < 1+aead.NonceSize()+aead.Overhead() {
		return nil, fmt.Errorf("store: sealed %s is truncated: %w", c, ErrTampered)
	}
	if sealed[0] != vaultFormat {
		return nil, fmt.Errorf("store: sealed %s has format %d, want %d: %w", c, sealed[0], vaultFormat, ErrTampered)
	}
	nonce := sealed[1 : 1+aead.NonceSize()]
	plain, err := aead.Open(nil, nonce, sealed[1+aead.NonceSize():], c.ad())
	if err != nil {
		return nil, fmt.Errorf("store: sealed %s does not open (altered, moved from elsewhere, or a different key): %w", c, ErrTampered)
	}
	return plain, nil
}

// loadKey reads a master key file. It must be a regular file of exactly 32 bytes that only
// its owner may read or write.
func loadKey(path string) (*vault, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("store: key file %s: %v: %w", path, err, ErrKey)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("store: key file %s: %v: %w", path, err, ErrKey)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("store: key file %s is not a regular file: %w", path, ErrKey)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("store: key file %s has mode %04o; it must be readable by its owner only (chmod 600 %s): %w", path, perm, path, ErrKey)
	}
	if fi.Size() != masterKeySize {
		return nil, fmt.Errorf("store: key file %s holds %d bytes, want %d: %w", path, fi.Size(), masterKeySize, ErrKey)
	}
	v := new(vault)
	if _, err := f.ReadAt(v.master[:], 0); err != nil {
		return nil, fmt.Errorf("store: key file %s: %v: %w", path, err, ErrKey)
	}
	return v, nil
}

// createKey writes a new random master key to path, which must not exist. It writes a
// temporary file, syncs it and links it into place, so path either holds a whole key or
// does not exist, even after a crash or a full disk.
func createKey(path string) (*vault, error) {
	v := new(vault)
	if _, err := rand.Read(v.master[:]); err != nil {
		return nil, fmt.Errorf("store: new key: %w", err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".new-*")
	if err != nil {
		return nil, fileError("create key file", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fileError("create key file", path, err)
	}
	if _, err := tmp.Write(v.master[:]); err != nil {
		tmp.Close()
		return nil, fileError("write key file", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fileError("write key file", path, err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fileError("write key file", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("store: key file %s appeared while creating it: %w", path, ErrExists)
		}
		return nil, fileError("create key file", path, err)
	}
	if err := syncDir(dir); err != nil {
		return nil, fileError("create key file", path, err)
	}
	return v, nil
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// derivedKeyInfo prefixes the HKDF info of keys handed to other packages.
const derivedKeyInfo = "bottlepost derived key v1 "

// DeriveKey returns a 32-byte key for purpose, derived by HKDF-SHA256 from the master key
// with its own info string, so it reveals nothing about the game keys or other purposes.
// The game service uses it for tokens that need no storage.
func (s *Store) DeriveKey(purpose string) []byte {
	k, err := hkdf.Key(sha256.New, s.vault.master[:], nil, derivedKeyInfo+purpose, 32)
	if err != nil {
		panic("store: hkdf: " + err.Error())
	}
	return k
}
