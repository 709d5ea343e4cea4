package core

import (
	"crypto/rand"
	"fmt"
)

func randomSecret() ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("core: no randomness: %w", err)
	}
	return b, nil
}
