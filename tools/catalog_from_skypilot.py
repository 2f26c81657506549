#!/usr/bin/env python3
"""Generate gpuplan provider catalogs from the SkyPilot price extracts.

Reads the six CSV extracts (aws, gcp, azure, lambda, nebius, oci) of the
skypilot-org/skypilot-catalog price files and writes one catalog file per
provider (``schema_version: 1``, see docs/catalog-format.md).

Usage:
    python3 tools/catalog_from_skypilot.py --prices DIR --out DIR [--gcp-n1-hosts FILE]

``--prices`` is the folder holding aws_gpu_vms.csv, gcp_gpu_vms.csv,
azure_gpu_vms.csv, lambda_gpu_vms.csv, nebius_gpu_vms.csv and
oci_gpu_vms_partial.csv. ``--gcp-n1-hosts`` is an optional CSV (GCP schema) of
n1 host-VM rows; with it, GCP T4 and V100 instances are built as
``<host>+<GPU>x<count>``. The script prints, per provider and GPU model, how
many CSV rows became price rows, and exits non-zero when a check fails.

Only the Python 3 standard library is used; the curated metadata is in
tools/skypilot_meta.py. Prices are copied as decimal text
(GCP instance prices are exact decimal sums of a GPU row and a host row).
"""

import argparse
import collections
import csv
import json
import os
import re
import sys
from decimal import Decimal

from skypilot_meta import (  # tools/, the script's folder, is on sys.path
    SKYPILOT_AS_OF,
    GPU_ORDER,
    INSTANCE_GPU,
    AWS_NETWORK,
    AWS_NVLINK,
    AWS_NOTES,
    AWS_RESERVED,
    aws_spot_rate,
    GCP_PAIRS,
    GCP_GPU,
    GCP_N1_HOST,
    GCP_N1_GPUS,
    GCP_NETWORK,
    GCP_LOCAL_SSD_GIB,
    gib_to_gb,
    GCP_NVLINK_PREFIXES,
    GCP_LEFT_OUT,
    GCP_NOTES,
    AZURE_NETWORK,
    AZURE_LOCAL_GIB,
    AZURE_NVLINK,
    AZURE_GPU_COUNT_FIX,
    AZURE_NOTES,
    LAMBDA_NOTES,
    lambda_nvlink,
    NEBIUS_NVLINK,
    NEBIUS_B200,
    NEBIUS_NETWORK,
    NEBIUS_NOTES,
    NEBIUS_H100_RESERVE,
    NEBIUS_RESERVE_AS_OF,
    OCI_NETWORK,
    OCI_NVLINK,
    PROVIDERS,
    PROVIDER_NOTES,
)


PLAIN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+/\-]*$")
RESERVED_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def ystr(s):
    s = str(s)
    if PLAIN_RE.match(s) and s.lower() not in RESERVED_WORDS:
        return s
    return json.dumps(s, ensure_ascii=False)


def ynum(v):
    if isinstance(v, bool):
        raise TypeError("bool is not a number")
    if isinstance(v, (int,)):
        return str(v)
    d = Decimal(str(v))
    if d == d.to_integral_value():
        return str(int(d))
    s = format(d.normalize(), "f") if isinstance(v, float) else str(v).strip()
    return s


def num_text(s):
    """CSV numeric text -> YAML number text (integral floats lose '.0')."""
    d = Decimal(s)
    if d == d.to_integral_value():
        return str(int(d))
    return format(d, "f").rstrip("0").rstrip(".") if "e" in s.lower() else s


def flow(pairs):
    return "{" + ", ".join("%s: %s" % (k, v) for k, v in pairs) + "}"


def emit_sources(lines, sources):
    lines.append("sources:")
    for sid, src in sources.items():
        lines.append("  %s:" % sid)
        lines.append("    title: %s" % ystr(src["title"]))
        lines.append("    url: %s" % ystr(src["url"]))
        if "grade" in src:
            lines.append("    grade: %s" % src["grade"])
        if src.get("note"):
            lines.append("    note: %s" % ystr(src["note"]))
        if src.get("undated"):
            lines.append("    undated: true")
        if src.get("as_of"):
            lines.append("    as_of: %s" % src["as_of"])


# --------------------------------------------------------------------------
# Reading CSVs into instances
# --------------------------------------------------------------------------

class Instance:
    def __init__(self, itype, gpu, count_text, vcpus, mem):
        self.type = itype
        self.gpu = gpu
        self.count_text = count_text
        self.vcpus = vcpus
        self.mem = mem
        self.rows = []          # list of dicts: region, zone, on_demand, spot
        self.network = None     # (gbps, source)
        self.nvlink = False
        self.local_nvme_gb = None
        self.reserved = []
        self.notes = []
        self.spot_rate = None   # (value, source, note) per-instance interruption rate


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def gpu_sort_key(inst):
    return (GPU_ORDER.index(inst.gpu), Decimal(inst.count_text), Decimal(inst.vcpus), inst.type)


def add_row(inst, region, zone, od, spot, stats, gpu):
    if not od and not spot:
        stats[gpu]["dropped"] += 1
        return
    row = {"region": region}
    if zone:
        row["zone"] = zone
    if od:
        row["on_demand"] = od
    # Spot at or above on-demand is no spot offer (a market at its cap, or a copy of the
    # on-demand price where no spot is sold): left out and counted, as gpuplan's importer does.
    if spot and od and Decimal(spot) >= Decimal(od):
        stats[gpu]["spot_not_below"] += 1
        spot = ""
    if spot:
        row["spot"] = spot
    inst.rows.append(row)
    stats[gpu]["price_rows"] += 1


def new_stats():
    return collections.defaultdict(lambda: collections.Counter())


def build_simple(pname, rows, zone_col, stats):
    """AWS, Azure, Lambda, Nebius, OCI: one price row per CSV row."""
    insts = {}
    for r in rows:
        accel = r["AcceleratorName"]
        if accel not in GPU_ORDER:
            raise SystemExit("%s: unknown accelerator %r" % (pname, accel))
        stats[accel]["csv_rows"] += 1
        t = r["InstanceType"]
        gpu = INSTANCE_GPU.get((pname, t), accel)
        count = r["AcceleratorCount"]
        if pname == "azure" and t in AZURE_GPU_COUNT_FIX:
            src_count, fixed = AZURE_GPU_COUNT_FIX[t]
            if Decimal(count) != Decimal(src_count):
                raise SystemExit("azure: %s count changed in source (%s)" % (t, count))
            count = str(fixed)
        if t not in insts:
            insts[t] = Instance(t, gpu, num_text(count), num_text(r["vCPUs"]), num_text(r["MemoryGiB"]))
            if pname == "aws" and r.get("NVMeSupported") == "True" and r.get("LocalDiskSize"):
                insts[t].local_nvme_gb = num_text(str(Decimal(r["LocalDiskSize"]) * Decimal(r["LocalDiskCount"])))
        inst = insts[t]
        if (inst.gpu, inst.vcpus) != (gpu, num_text(r["vCPUs"])):
            raise SystemExit("%s: %s has inconsistent rows" % (pname, t))
        zone = r[zone_col] if zone_col else None
        add_row(inst, r["Region"], zone, r["Price"].strip(), r["SpotPrice"].strip(), stats, accel)
    return list(insts.values())


def dsum(a, b):
    return str(Decimal(a) + Decimal(b))


def build_gcp(rows, n1_rows, stats, extra):
    acc = collections.defaultdict(dict)     # (name, count) -> zone -> row
    hosts = collections.defaultdict(list)
    for r in rows:
        if r["InstanceType"]:
            hosts[r["InstanceType"]].append(r)
        else:
            key = (r["AcceleratorName"], int(Decimal(r["AcceleratorCount"])))
            if r["AvailabilityZone"] in acc[key]:
                raise SystemExit("gcp: duplicate accelerator row %r %s" % (key, r["AvailabilityZone"]))
            acc[key][r["AvailabilityZone"]] = r
    used = collections.defaultdict(set)
    insts = []
    for t in sorted(hosts):
        if t not in GCP_PAIRS:
            raise SystemExit("gcp: no pairing for host type %s" % t)
        name, count = GCP_PAIRS[t]
        gpu = GCP_GPU.get(name, name)
        hrows = hosts[t]
        inst = Instance(t, gpu, str(count), num_text(hrows[0]["vCPUs"]), num_text(hrows[0]["MemoryGiB"]))
        left_out_regions, left_out_reason = GCP_LEFT_OUT.get(t, (set(), ""))
        left_out = set()
        for h in hrows:
            stats[name]["host_csv_rows"] += 1
            a = acc[(name, count)].get(h["AvailabilityZone"])
            if a is None:
                stats[name]["dropped"] += 1
                continue
            if h["Region"] in left_out_regions:
                stats[name]["left_out"] += 1
                used[(name, count)].add(h["AvailabilityZone"])
                left_out.add(h["Region"])
                continue
            used[(name, count)].add(h["AvailabilityZone"])
            od = dsum(a["Price"], h["Price"]) if a["Price"] and h["Price"] else ""
            sp = dsum(a["SpotPrice"], h["SpotPrice"]) if a["SpotPrice"] and h["SpotPrice"] else ""
            add_row(inst, h["Region"], h["AvailabilityZone"], od, sp, stats, name)
        if left_out:
            inst.notes.append("left out in %s: %s" % (", ".join(sorted(left_out)), left_out_reason))
        insts.append(inst)
    # T4 / V100 on the n1 host
    if n1_rows:
        n1 = {}
        for h in n1_rows:
            if h["InstanceType"] != GCP_N1_HOST:
                continue
            n1[h["AvailabilityZone"]] = h
        for (name, count) in sorted(acc):
            if name not in GCP_N1_GPUS:
                continue
            t = "%s+%sx%d" % (GCP_N1_HOST, name, count)
            any_host = next(iter(n1.values()))
            inst = Instance(t, name, str(count), num_text(any_host["vCPUs"]), num_text(any_host["MemoryGiB"]))
            inst.notes.append("%s (8 vCPU, 52 GiB) host for every %s count: documented choice, see provider note"
                              % (GCP_N1_HOST, name))
            for zone in sorted(acc[(name, count)]):
                a = acc[(name, count)][zone]
                h = n1.get(zone)
                if h is None:
                    stats[name]["dropped"] += 1
                    continue
                used[(name, count)].add(zone)
                od = dsum(a["Price"], h["Price"]) if a["Price"] and h["Price"] else ""
                sp = dsum(a["SpotPrice"], h["SpotPrice"]) if a["SpotPrice"] and h["SpotPrice"] else ""
                inst.rows_source = "skypilot-gcp-v9-n1"
                add_row(inst, a["Region"], zone, od, sp, stats, name)
            insts.append(inst)
    unused = {}
    for key, zones in acc.items():
        stats[key[0]]["acc_csv_rows"] += len(zones)
        stats[key[0]]["acc_rows_used"] += len(used[key])
        n_unused = len(zones) - len(used[key])
        if n_unused:
            unused["%s x%d" % key] = n_unused
    extra["unused"] = unused
    # check: g2 L4 counts exist among the accelerator rows
    for t, (name, count) in GCP_PAIRS.items():
        if t.startswith("g2-") and (name, count) not in acc:
            raise SystemExit("gcp: no accelerator rows for %s x%d (%s)" % (name, count, t))
    return insts


def decorate(pname, insts):
    for inst in insts:
        t = inst.type
        if pname == "aws":
            if t in AWS_NETWORK:
                inst.network = (AWS_NETWORK[t], "karpenter-bandwidth")
            inst.nvlink = t in AWS_NVLINK
            if t in AWS_NOTES:
                inst.notes.append(AWS_NOTES[t])
            inst.reserved = AWS_RESERVED.get(t, [])
            inst.spot_rate = aws_spot_rate(t)
        elif pname == "gcp":
            if t in GCP_NETWORK:
                inst.network = GCP_NETWORK[t]
            inst.nvlink = t.startswith(GCP_NVLINK_PREFIXES) and Decimal(inst.count_text) > 1
            if t in GCP_LOCAL_SSD_GIB:
                inst.local_nvme_gb = gib_to_gb(GCP_LOCAL_SSD_GIB[t])
                inst.notes.append("local_nvme_gb = %s GiB attached Local SSD" % "{:,}".format(GCP_LOCAL_SSD_GIB[t]))
            if GCP_NOTES.get(t):
                inst.notes.append(GCP_NOTES[t])
        elif pname == "azure":
            if t in AZURE_NETWORK:
                inst.network = AZURE_NETWORK[t]
            inst.nvlink = t in AZURE_NVLINK
            if t in AZURE_LOCAL_GIB:
                inst.local_nvme_gb = gib_to_gb(AZURE_LOCAL_GIB[t][0])
            if t in AZURE_NOTES:
                inst.notes.append(AZURE_NOTES[t])
        elif pname == "lambda":
            inst.nvlink = lambda_nvlink(t, Decimal(inst.count_text))
            if t in LAMBDA_NOTES:
                inst.notes.append(LAMBDA_NOTES[t])
        elif pname == "nebius":
            inst.nvlink = t in NEBIUS_NVLINK or t in NEBIUS_B200
            if t in NEBIUS_NETWORK:
                inst.network = NEBIUS_NETWORK[t]
            if t in NEBIUS_NOTES:
                inst.notes.append(NEBIUS_NOTES[t])
            if inst.gpu == "H100":
                count = Decimal(inst.count_text)
                for term, per_gpu in NEBIUS_H100_RESERVE:
                    inst.reserved.append({
                        "term": term, "payment": "all_upfront",
                        "effective_per_hour": str((Decimal(per_gpu) * count).normalize()),
                        "source": "nebius-site-summary", "as_of": NEBIUS_RESERVE_AS_OF})
                inst.notes.append("reserved rows: Nebius H100 reserve prices per GPU-hour x GPUs (1-year 2.94, "
                                  "3-year 2.12; nebius-site-summary), prepaid (nebius-commitments)")
        elif pname == "oci":
            if t in OCI_NETWORK:
                gbps, detail = OCI_NETWORK[t]
                inst.network = (gbps, "oci-computeshapes")
                if detail:
                    inst.notes.append("network: " + detail)
            inst.nvlink = t in OCI_NVLINK


# --------------------------------------------------------------------------
# Writing one provider file
# --------------------------------------------------------------------------

def write_provider(pname, meta, insts, note, out_dir):
    lines = [
        "# Generated by tools/catalog_from_skypilot.py from the SkyPilot catalog extracts.",
        "# Do not edit by hand: change the script or its inputs and run it again.",
        "schema_version: 1",
    ]
    emit_sources(lines, meta["sources"])
    lines.append("providers:")
    lines.append("  - name: %s" % pname)
    lines.append("    display_name: %s" % ystr(meta["display_name"]))
    lines.append("    currency: USD")
    lines.append("    as_of: %s" % meta.get("as_of", SKYPILOT_AS_OF))
    lines.append("    source: %s" % meta["source_id"])
    if "billing" in meta:
        b = meta["billing"]
        lines.append("    billing:")
        lines.append("      granularity_seconds: %d" % b["granularity_seconds"])
        lines.append("      minimum_seconds: %d" % b["minimum_seconds"])
        lines.append("      source: %s" % b["source"])
    if "spot" in meta:
        lines.append("    spot:")
        for key in ("interruption_rate_per_node_hour", "notice_seconds", "restart_minutes"):
            v, s, *extra = meta["spot"][key]
            pairs = [("value", v), ("source", s)] + [("note", ystr(n)) for n in extra]
            lines.append("      %s: %s" % (key, flow(pairs)))
    if meta.get("reserved_discounts"):
        lines.append("    reserved_discounts:")
        for d in meta["reserved_discounts"]:
            pairs = [("term", d["term"]), ("payment", d["payment"]), ("discount", d["discount"]),
                     ("source", d["source"])]
            if d.get("default"):
                pairs.append(("default", "true"))
            lines.append("      - " + flow(pairs))
    if "egress_per_gb" in meta:
        v, s = meta["egress_per_gb"]
        lines.append("    egress_per_gb: %s" % flow([("value", v), ("source", s)]))
    lines.append("    note: %s" % ystr(note))
    lines.append("    instances:")
    for inst in sorted(insts, key=gpu_sort_key):
        lines.append("      - type: %s" % ystr(inst.type))
        lines.append("        gpu: %s" % inst.gpu)
        lines.append("        gpu_count: %s" % inst.count_text)
        lines.append("        vcpus: %s" % inst.vcpus)
        lines.append("        memory_gib: %s" % inst.mem)
        if inst.network:
            lines.append("        network_gbps: %s" % ynum(inst.network[0]))
            lines.append("        network_source: %s" % inst.network[1])
        if inst.nvlink:
            lines.append("        nvlink: true")
        if inst.local_nvme_gb:
            lines.append("        local_nvme_gb: %s" % inst.local_nvme_gb)
        if inst.spot_rate:
            v, s, n = inst.spot_rate
            lines.append("        spot_interruption_rate_per_node_hour: %s"
                         % flow([("value", v), ("source", s), ("note", ystr(n))]))
        lines.append("        prices:")
        row_src = getattr(inst, "rows_source", None)
        for r in sorted(inst.rows, key=lambda r: (r["region"], r.get("zone", ""))):
            pairs = [("region", ystr(r["region"]))]
            if "zone" in r:
                pairs.append(("zone", ystr(r["zone"])))
            if "on_demand" in r:
                pairs.append(("on_demand", r["on_demand"]))
            if "spot" in r:
                pairs.append(("spot", r["spot"]))
            if row_src:
                pairs.append(("source", row_src))
            lines.append("          - " + flow(pairs))
        if inst.reserved:
            lines.append("        reserved:")
            for d in inst.reserved:
                lines.append("          - " + flow([(k, d[k]) for k in
                                                      ("term", "payment", "effective_per_hour", "region", "source", "as_of")
                                                      if k in d]))
        if inst.notes:
            lines.append("        note: %s" % ystr("; ".join(inst.notes)))
    path = os.path.join(out_dir, "%s.yaml" % pname)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def fmt_dropped(stats):
    items = ["%s %d" % (g, stats[g]["dropped"]) for g in sorted(stats) if stats[g]["dropped"]]
    return ", ".join(items) if items else "none"


def fmt_spot_not_below(stats):
    items = ["%s %d" % (g, stats[g]["spot_not_below"]) for g in sorted(stats)
             if stats[g]["spot_not_below"]]
    return ", ".join(items) if items else "none"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prices", required=True, help="folder with the six SkyPilot CSV extracts")
    ap.add_argument("--out", required=True, help="output folder for <provider>.yaml")
    ap.add_argument("--gcp-n1-hosts", help="CSV (GCP schema) with n1-highmem-8 host rows")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    n1_rows = read_csv(args.gcp_n1_hosts) if args.gcp_n1_hosts else []
    ok = True
    grand = collections.Counter()
    for pname, meta in PROVIDERS.items():
        rows = read_csv(os.path.join(args.prices, meta["csv"]))
        for extra_csv in meta.get("extra_csv", []):
            rows += read_csv(os.path.join(args.prices, extra_csv))
        stats = new_stats()
        extra = {}
        if pname == "gcp":
            insts = build_gcp(rows, n1_rows, stats, extra)
        else:
            zone_col = "AvailabilityZone" if pname in ("aws", "oci") else None
            insts = build_simple(pname, rows, zone_col, stats)
        decorate(pname, insts)
        # uniqueness of (region, zone) per instance
        for inst in insts:
            keys = [(r["region"], r.get("zone")) for r in inst.rows]
            if len(keys) != len(set(keys)):
                print("ERROR %s %s: duplicate (region, zone)" % (pname, inst.type))
                ok = False
        fmt = {"dropped": fmt_dropped(stats), "spot_not_below": fmt_spot_not_below(stats)}
        if pname == "gcp":
            unused = extra["unused"]
            fmt["unused"] = ", ".join("%s %d" % kv for kv in sorted(unused.items())) or "none"
        if pname == "gcp" and not n1_rows:
            PROVIDER_NOTES["gcp"] = PROVIDER_NOTES["gcp"].replace(
                "they are priced on one documented host", "no n1 host prices were given, so they are left out; "
                "with host prices they would be priced on one documented host")
        note = PROVIDER_NOTES[pname].format(**fmt)
        path = write_provider(pname, meta, insts, note, args.out)
        total_csv = len(rows)
        total_price = sum(len(i.rows) for i in insts)
        print("%s: %d CSV rows, %d instance types, %d price rows -> %s"
              % (pname, total_csv, len(insts), total_price, os.path.basename(path)))
        order = GPU_ORDER + (["H100-MEGA"] if pname == "gcp" else [])
        order = sorted(order, key=lambda g: GPU_ORDER.index(GCP_GPU.get(g, g)) + (0.5 if g in GCP_GPU else 0))
        for g in order:
            s = stats[g]
            if not s:
                continue
            if pname == "gcp":
                host = ("n1 host %s" % GCP_N1_HOST) if g in GCP_N1_GPUS else ("host rows %4d" % s["host_csv_rows"])
                print("  %-10s accelerator rows %4d (used %4d)  %s  price rows %4d  dropped %d"
                      % (g, s["acc_csv_rows"], s["acc_rows_used"], host, s["price_rows"], s["dropped"]))
            else:
                print("  %-10s CSV rows %4d  price rows %4d  dropped %d"
                      % (g, s["csv_rows"], s["price_rows"], s["dropped"]))
            if pname != "gcp" and s["csv_rows"] != s["price_rows"] + s["dropped"]:
                print("ERROR %s %s: row count mismatch" % (pname, g))
                ok = False
        if pname == "gcp":
            print("  unused accelerator rows (no host row in that zone): %s" % fmt["unused"])
        grand["csv"] += total_csv
        grand["price"] += total_price
    print("total: %d CSV rows, %d price rows" % (grand["csv"], grand["price"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
