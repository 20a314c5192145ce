package pgeval

import (
	"encoding/json"
	"fmt"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSmallNumbersAsExact holds the int64 form of the numeric candidates to the exact
// one over rationals: the same values, in the same order (the order decides which
// witness a search reports), on generated constants and bounds of every sign, scale and
// size, integer domains included; and it must take most of them.
func TestSmallNumbersAsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	digits := func() string {
		n := r.IntN(6)
		if r.IntN(10) == 0 {
			n = 10 + r.IntN(12) // beyond what int64 holds scaled
		}
		s := fmt.Sprint(r.IntN(10))
		for range n {
			s += fmt.Sprint(r.IntN(10))
		}
		return s
	}
	number := func() string {
		s := digits()
		if r.IntN(2) == 0 {
			s += "." + digits()
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		if r.IntN(20) == 0 {
			s += "e" + fmt.Sprint(r.IntN(5))
		}
		return s
	}
	fast := 0
	const cases = 20000
	for i := range cases {
		var consts []Decimal
		for range r.IntN(5) {
			d, ok := ParseDecimal(number())
			if !ok {
				t.Fatal("generated no number")
			}
			consts = append(consts, d)
		}
		var d Domain
		d.Type = []string{"", "number", "integer"}[r.IntN(3)]
		if r.IntN(3) == 0 {
			d.Min = number()
		}
		if r.IntN(3) == 0 {
			d.Max = number()
		}
		if r.IntN(30) == 0 {
			d.Min = "+1"
		}
		exact := &candidateSet{}
		numbersExact(consts, d, exact)
		texts, ok := smallNumbers(consts, d)
		if !ok {
			continue
		}
		fast++
		got := &candidateSet{}
		for _, s := range texts {
			got.add(json.Number(s))
		}
		if !slices.Equal(got.out, exact.out) {
			t.Fatalf("case %d: constants %v, domain %+v:\n int64:  %v\n exact:  %v", i, consts, d, got.out, exact.out)
		}
	}
	if fast < cases/2 {
		t.Errorf("the int64 form took %d of %d cases", fast, cases)
	}
}

// TestShortDecimalAsNumericInput holds the fast reading of short numbers to numeric
// input's full reading: the same value and scale, or no fast reading at all.
func TestShortDecimalAsNumericInput(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	alphabet := "0123456789.-+e "
	fast := 0
	for range 200000 {
		b := make([]byte, 1+r.IntN(21))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = alphabet[r.IntN(10)]
			}
		}
		s := string(b)
		d, ok := shortDecimal(s)
		if !ok {
			continue
		}
		fast++
		want, err := parseNumericText(s)
		if err != nil || want.Unscaled.Cmp(d.Unscaled) != 0 || want.Scale != d.Scale {
			t.Fatalf("%q: fast %v (scale %d), numeric input %v (scale %d) %v", s, d.Unscaled, d.Scale, want.Unscaled, want.Scale, err)
		}
	}
	if fast < 10000 {
		t.Errorf("only %d texts read fast", fast)
	}
}

// TestDecimalCmpAsRationals holds numeric comparison (its int64 shortcut included) to
// exact rationals, on decimals of every sign, scale and size.
func TestDecimalCmpAsRationals(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	dec := func() Decimal {
		u := new(big.Int).Rand(r2(r), new(big.Int).Lsh(big.NewInt(1), uint(1+r.IntN(80))))
		if r.IntN(2) == 0 {
			u.Neg(u)
		}
		return Decimal{Unscaled: u, Scale: r.IntN(25)}
	}
	for range 20000 {
		a, b := dec(), dec()
		if r.IntN(4) == 0 {
			b = Decimal{Unscaled: new(big.Int).Mul(a.Unscaled, pow10(3)), Scale: a.Scale + 3} // equal
		}
		if got, want := a.cmp(b), a.rat().Cmp(b.rat()); got != want {
			t.Fatalf("cmp(%v, %v) = %d, want %d", a, b, got, want)
		}
	}
}

// r2 is a math/rand source drawn from r, for big.Int.Rand.
func r2(r *rand.Rand) *mrand.Rand { return mrand.New(mrand.NewSource(r.Int64())) }
