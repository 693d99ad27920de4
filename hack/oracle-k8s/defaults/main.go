// Command defaults defaults built-in objects exactly as kube-apiserver does when it decodes a
// request body: the versioned object is decoded through k8s.io/kubernetes' legacy scheme with its
// defaulting functions (pkg/apis/<group>/<version>/defaults.go SetDefaults_* and the generated
// zz_generated.defaults.go SetObjectDefaults_*, which include k8s.io/api's +default= tags),
// converted to the internal version, and encoded back to the versioned JSON, as the apiserver's
// response to a create shows it (before the registry strategy's own changes).
//
// kgen's fake applies the same defaults without Go (runtime/fake/defaulting/); this program is the
// oracle its data file is extracted from (hack/oracle-k8s/extract_defaults.py) and the differential
// test compares against (tests/unit/test_fake_defaulting_oracle.py).
//
// Input: one JSON object per line (apiVersion, kind and body). Output: one line per input line,
// the defaulted object, or {"error": "..."} when the apiserver's decoder would refuse it.
//
// With -raw, the object is only decoded into its versioned Go type and encoded again (no
// defaulting, no conversion): what encoding/json writes of itself (a non-omitempty field's zero
// value, an empty struct), which tells the extraction script those apart from defaults.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/apiserverinternal/install"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	_ "k8s.io/kubernetes/pkg/apis/storagemigration/install"
)

func fail(out *bufio.Writer, err error) {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	out.Write(b)
	out.WriteByte('\n')
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	raw := flag.Bool("raw", false, "decode and encode the versioned Go type only, without defaulting")
	flag.Parse()
	decoder := legacyscheme.Codecs.UniversalDecoder()
	if *raw {
		decoder = legacyscheme.Codecs.UniversalDeserializer()
	}
	for in.Scan() {
		line := in.Bytes()
		if len(line) == 0 {
			continue
		}
		obj, gvk, err := decoder.Decode(line, nil, nil)
		if err != nil {
			fail(out, err)
			continue
		}
		var encoded []byte
		if *raw {
			encoded, err = json.Marshal(obj)
		} else {
			encoded, err = runtime.Encode(legacyscheme.Codecs.LegacyCodec(gvk.GroupVersion()), obj)
		}
		if err != nil {
			fail(out, err)
			continue
		}
		var compact map[string]interface{}
		if err := json.Unmarshal(encoded, &compact); err != nil {
			fail(out, err)
			continue
		}
		b, _ := json.Marshal(compact)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
