package ensemble

import "strings"

// kitchen is the seed's kitchen scenario, used by the rule documentation; edits
// ("old", "new", …) turn it into a failing example.
func kitchen(edits ...string) string {
	return strings.NewReplacer(edits...).Replace(`ensemble: kitchen
workflow: SEQUENTIAL
phases:
  - name: steak
    tasks:
      - { name: prep-steak, description: Season the steak }
      - { name: cook-steak, description: Sear the steak, context: [prep-steak] }
  - name: pasta
    workflow: PARALLEL
    tasks:
      - { name: boil-pasta, description: Boil the pasta }
      - { name: make-sauce, description: Make the sauce }
  - name: serve
    after: [steak, pasta]
    tasks:
      - { name: plate, description: Plate everything, context: [cook-steak, $make-sauce] }
`)
}
