package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/bottlepost/bottlepost/store"
)

// putSealed stores v (as JSON) in the store's setting name, sealed with
// XChaCha20-Poly1305 under key (one derived from the master key) and bound
// to name, so that a value cannot be passed off under another name: the
// messages between opponents (messages.go) and the pending changes of
// address (address.go) are kept so.
func putSealed(tx *store.Tx, rand io.Reader, key []byte, name string, v any) error {
	plain, err := json.Marshal(v)
	if err != nil {
		return err
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := io.ReadFull(rand, nonce); err != nil {
		return err
	}
	return tx.PutSetting(name, aead.Seal(nonce, nonce, plain, []byte(name)))
}

// getSealed reads into v the value putSealed stored under name; found is
// false when there is none. A value that does not open or decode is damaged
// data (store.ErrCorrupt).
func getSealed(tx *store.Tx, key []byte, name string, v any) (found bool, err error) {
	sealed, err := tx.Setting(name)
	if err != nil || sealed == nil {
		return false, err
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return false, err
	}
	if len(sealed) < aead.NonceSize() {
		return false, fmt.Errorf("game: sealed value %s is too short: %w", name, store.ErrCorrupt)
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], []byte(name))
	if err != nil {
		return false, fmt.Errorf("game: sealed value %s does not open: %w", name, errors.Join(err, store.ErrCorrupt))
	}
	if err := json.Unmarshal(plain, v); err != nil {
		return false, fmt.Errorf("game: sealed value %s: %w", name, errors.Join(err, store.ErrCorrupt))
	}
	return true, nil
}
