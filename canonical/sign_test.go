package canonical

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
)

func testKeys(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pubPEM, privPEM, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pubPEM), "-----BEGIN PUBLIC KEY-----\n") ||
		!strings.HasPrefix(string(privPEM), "-----BEGIN PRIVATE KEY-----\n") {
		t.Fatalf("unexpected PEM:\n%s%s", pubPEM, privPEM)
	}
	pub, err := ParsePublicKey(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ParsePrivateKey(privPEM)
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) {
		t.Fatal("the public key does not belong to the private key")
	}
	return pub, priv
}

const signedDoc = `{"name":"nightly","steps":[{"id":"load","next":"done","retries":3,"timeout":1.5}]}`

func TestSignVerify(t *testing.T) {
	pub, priv := testKeys(t)
	doc := decode(t, []byte(signedDoc)).(map[string]any)
	before := mustChecksum(t, doc)

	sig, err := Sign(doc, priv)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(doc, sig, pub); err != nil {
		t.Fatalf("Verify of a fresh signature: %v", err)
	}

	// Storing the signature in the document changes neither the checksum nor
	// what is signed, and re-signing gives the same signature.
	doc[SignatureProperty] = sig
	if after := mustChecksum(t, doc); after != before {
		t.Errorf("checksum %s after signing, %s before", after, before)
	}
	stored, _ := Signature(doc)
	if err := Verify(doc, stored, pub); err != nil {
		t.Errorf("Verify with the signature in place: %v", err)
	}
	if again, _ := Sign(doc, priv); again != sig {
		t.Errorf("re-signing gave %s, want %s (Ed25519 is deterministic)", again, sig)
	}

	// Another spelling of the same document verifies too.
	respelt := decode(t, []byte(`{ "steps":[{"timeout":15e-1,"retries":3.0,"next":"done","id":"load"}], "name":"nightly",
		"signature": "`+sig+`"}`))
	if err := Verify(respelt, sig, pub); err != nil {
		t.Errorf("Verify of a respelt document: %v", err)
	}
}

func TestVerifyFailures(t *testing.T) {
	pub, priv := testKeys(t)
	doc := decode(t, []byte(signedDoc))
	sig, err := Sign(doc, priv)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(sig)
	flipped := append([]byte(nil), raw...)
	flipped[10] ^= 0x01
	// The last base64 character of 64 bytes carries 2 unused bits.
	lastChar := []byte(sig)
	lastChar[len(lastChar)-3] ^= 0x01
	otherPub, _ := testKeys(t)

	changed := decode(t, []byte(strings.Replace(signedDoc, `"retries":3`, `"retries":4`, 1)))
	nested := decode(t, []byte(strings.Replace(signedDoc, `"id":"load"`, `"id":"load","signature":"x"`, 1)))

	tests := []struct {
		name string
		doc  any
		sig  string
		pub  ed25519.PublicKey
		want error
		msg  string
	}{
		{"changed value", changed, sig, pub, ErrSignatureMismatch, "signature does not match"},
		{"nested signature added", nested, sig, pub, ErrSignatureMismatch, "signature does not match"},
		{"tampered signature", doc, base64.StdEncoding.EncodeToString(flipped), pub, ErrSignatureMismatch, "signature does not match"},
		{"tampered base64", doc, string(lastChar), pub, nil, ""},
		{"other key", doc, sig, otherPub, ErrSignatureMismatch, "signature does not match"},
		{"no signature", doc, "", pub, ErrNoSignature, "no signature"},
		{"not base64", doc, "not base64!", pub, nil, "signature is not base64"},
		{"newline inside", doc, sig[:20] + "\n" + sig[20:], pub, nil, "signature is not base64"},
		{"trailing newline", doc, sig + "\r\n", pub, nil, "signature is not base64"},
		{"truncated", doc, base64.StdEncoding.EncodeToString(raw[:63]), pub, nil, "signature has 63 bytes, want 64"},
		{"bad public key", doc, sig, pub[:5], nil, "public key has 5 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(tt.doc, tt.sig, tt.pub)
			if err == nil {
				t.Fatal("Verify accepted it")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q, want one containing %q", err, tt.msg)
			}
		})
	}
}

func TestSignErrors(t *testing.T) {
	_, priv := testKeys(t)
	if _, err := Sign(map[string]any{"a": "\xff"}, priv); err == nil || !strings.HasPrefix(err.Error(), "signing: ") {
		t.Errorf("signing an invalid document: %v", err)
	}
	if _, err := Sign(map[string]any{}, priv[:10]); err == nil {
		t.Error("Sign accepted a short key")
	}
}

func TestParseKeyErrors(t *testing.T) {
	pubPEM, privPEM, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecPrivDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecPubDER, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	ecPriv := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecPrivDER})
	ecPub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: ecPubDER})
	junkPub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte("junk")})
	junk := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("junk")})

	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"not PEM", []byte("hello"), "no PEM block found"},
		{"public as private", pubPEM, `PEM block is "PUBLIC KEY", want "PRIVATE KEY"`},
		{"ECDSA", ecPriv, "it is a *ecdsa.PrivateKey, not an Ed25519 key"},
		{"junk DER", junk, "reading private key: not a PKCS #8 key"},
	} {
		if _, err := ParsePrivateKey(tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePrivateKey(%s): %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want string
	}{
		{"not PEM", nil, "no PEM block found"},
		{"private as public", privPEM, `PEM block is "PRIVATE KEY", want "PUBLIC KEY"`},
		{"ECDSA", ecPub, "it is a *ecdsa.PublicKey, not an Ed25519 key"},
		{"junk DER", junkPub, "reading public key: not a PKIX key"},
	} {
		if _, err := ParsePublicKey(tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePublicKey(%s): %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

// Keys in the form "openssl genpkey -algorithm ed25519" writes them read, and
// their halves belong together.
func TestParseOpenSSLKey(t *testing.T) {
	// RFC 8032 test 1 secret key, wrapped as openssl writes it.
	const privPEM = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n"
	const pubPEM = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n-----END PUBLIC KEY-----\n"
	priv, err := ParsePrivateKey([]byte(privPEM))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey([]byte(pubPEM))
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) {
		t.Fatal("RFC 8032 test 1 key pair does not match")
	}
	doc := map[string]any{"a": json.Number("1")}
	sig, err := Sign(doc, priv)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(doc, sig, pub); err != nil {
		t.Fatal(err)
	}
}
