// Command utilvalidation is the oracle for kgen.runtime.apimachinery.validation.content:
// apimachinery's string and number checks (pkg/util/validation and pkg/api/validate/content) at
// the envtest version, whose messages the apiserver's Go validation quotes; and for
// kgen.runtime.apimachinery.golang.gojson: encoding/json's error for a bad JSON object (the text a
// Secret's .dockerconfigjson check quotes).
//
// Reads JSON lines {"fn": NAME, "s": STRING, "n": INT} on stdin and writes one line per case: the
// messages the function returns (for the IP and CIDR checks, each error's detail), [] when valid.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type input struct {
	Fn string `json:"fn"`
	B  string `json:"b"` // base64 bytes, for json_map
	S  string `json:"s"`
	N  int    `json:"n"`
}

func details(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Detail)
	}
	return out
}

func run(c input) []string {
	p := field.NewPath("f")
	switch c.Fn {
	case "is_dns1123_label":
		return validation.IsDNS1123Label(c.S)
	case "is_dns1123_subdomain":
		return validation.IsDNS1123Subdomain(c.S)
	case "is_dns1035_label":
		return validation.IsDNS1035Label(c.S)
	case "is_wildcard_dns1123_subdomain":
		return validation.IsWildcardDNS1123Subdomain(c.S)
	case "is_qualified_name":
		return validation.IsQualifiedName(c.S)
	case "is_label_value":
		return validation.IsValidLabelValue(c.S)
	case "is_config_map_key":
		return validation.IsConfigMapKey(c.S)
	case "is_valid_port_name":
		return validation.IsValidPortName(c.S)
	case "is_valid_port_num":
		return validation.IsValidPortNum(c.N)
	case "is_path_segment_name":
		return content.IsPathSegmentName(c.S)
	case "is_valid_ip_legacy":
		return details(validation.IsValidIPForLegacyField(p, c.S, true, nil))
	case "is_valid_ip_legacy_sloppy":
		return details(validation.IsValidIPForLegacyField(p, c.S, false, nil))
	case "is_valid_cidr_legacy":
		return details(validation.IsValidCIDRForLegacyField(p, c.S, true, nil))
	case "is_valid_cidr_legacy_sloppy":
		return details(validation.IsValidCIDRForLegacyField(p, c.S, false, nil))
	case "json_map":
		raw, err := base64.StdEncoding.DecodeString(c.B)
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(raw, &map[string]interface{}{}); err != nil {
			return []string{err.Error()}
		}
		return []string{}
	}
	panic(fmt.Sprintf("unknown function %q", c.Fn))
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 16*1024*1024), 16*1024*1024)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			panic(err)
		}
		msgs := run(c)
		if msgs == nil {
			msgs = []string{}
		}
		if err := enc.Encode(msgs); err != nil {
			panic(err)
		}
	}
}
