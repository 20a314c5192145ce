package canonical

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// Errors from Verify, for callers that report the cases differently.
var (
	// ErrNoSignature is returned by Verify for an empty signature.
	ErrNoSignature = errors.New("no signature")
	// ErrSignatureMismatch is returned by Verify for a well-formed signature
	// that was not made over this document with this key.
	ErrSignatureMismatch = errors.New("signature does not match")
)

// GenerateKey returns a new Ed25519 key pair as PEM: the public key as a
// "PUBLIC KEY" block (PKIX) and the private key as a "PRIVATE KEY" block
// (PKCS #8), the forms openssl reads and writes.
func GenerateKey() (pubPEM, privPEM []byte, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating Ed25519 key: %w", err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding public key: %w", err)
	}
	privDER, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding private key: %w", err)
	}
	pubPEM = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	privPEM = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER})
	return pubPEM, privPEM, nil
}

// ParsePrivateKey reads an Ed25519 private key from a PEM "PRIVATE KEY"
// (PKCS #8) block.
func ParsePrivateKey(pemBytes []byte) (ed25519.PrivateKey, error) {
	der, err := pemBlock(pemBytes, "PRIVATE KEY")
	if err != nil {
		return nil, fmt.Errorf("reading private key: %w", err)
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("reading private key: not a PKCS #8 key: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("reading private key: it is a %T, not an Ed25519 key", k)
	}
	return priv, nil
}

// ParsePublicKey reads an Ed25519 public key from a PEM "PUBLIC KEY" (PKIX)
// block.
func ParsePublicKey(pemBytes []byte) (ed25519.PublicKey, error) {
	der, err := pemBlock(pemBytes, "PUBLIC KEY")
	if err != nil {
		return nil, fmt.Errorf("reading public key: %w", err)
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("reading public key: not a PKIX key: %w", err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("reading public key: it is a %T, not an Ed25519 key", k)
	}
	return pub, nil
}

func pemBlock(data []byte, want string) ([]byte, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("no PEM block found")
	}
	if block.Type != want {
		return nil, fmt.Errorf("PEM block is %q, want %q", block.Type, want)
	}
	return block.Bytes, nil
}

// Sign returns the base64 (standard encoding) Ed25519 signature of
// Bytes(doc). Since Bytes leaves out the top-level "signature" property, a
// document can be signed again, or verified, with its signature in place.
func Sign(doc any, key ed25519.PrivateKey) (string, error) {
	if len(key) != ed25519.PrivateKeySize {
		return "", fmt.Errorf("signing: private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	b, err := Bytes(doc)
	if err != nil {
		return "", fmt.Errorf("signing: %w", err)
	}
	return base64.StdEncoding.EncodeToString(ed25519.Sign(key, b)), nil
}

// Verify checks sig, as Sign returns it, against Bytes(doc) and pub. It
// returns nil when the signature is valid, ErrNoSignature when sig is empty,
// an error wrapping ErrSignatureMismatch when it is well-formed but wrong, and
// another clear error when it is malformed.
func Verify(doc any, sig string, pub ed25519.PublicKey) error {
	if sig == "" {
		return ErrNoSignature
	}
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("verifying: public key has %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	// Strict, so a signature altered only in its unused trailing bits is
	// rejected rather than decoded to the same bytes; and no whitespace, which
	// the decoder would skip: one signature has exactly one spelling.
	raw, err := base64.StdEncoding.Strict().DecodeString(sig)
	if err != nil || strings.ContainsAny(sig, " \t\r\n\v\f") {
		return errors.New("signature is not base64")
	}
	if len(raw) != ed25519.SignatureSize {
		return fmt.Errorf("signature has %d bytes, want %d", len(raw), ed25519.SignatureSize)
	}
	b, err := Bytes(doc)
	if err != nil {
		return fmt.Errorf("verifying: %w", err)
	}
	if !ed25519.Verify(pub, b, raw) {
		return ErrSignatureMismatch
	}
	return nil
}
