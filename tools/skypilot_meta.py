"""Curated metadata of the providers tools/catalog_from_skypilot.py writes: sources, interconnect,
network bandwidth, reservations, spot bands and notes. Every number names its source id."""

import math


# --------------------------------------------------------------------------
# Curated metadata (sources, interconnect, network bandwidth, notes).
# Every number below names its source id; the ids are defined per provider.
# --------------------------------------------------------------------------

SKYPILOT_AS_OF = "2026-07-09"
SKYPILOT_DATE_NOTE = (
    "The commit's own date is unknown; the v9 folder was created by PR skypilot-org/skypilot-catalog#185 "
    "on 2026-07-09 as a copy of the daily-refreshed v8 feed, so a v9 commit's prices are no older than "
    "that: the source's as_of 2026-07-09 is that lower bound, taken from the source's history, not the "
    "day it was read. Prices are a snapshot of public list prices, not current prices.")
# The date of PR skypilot-org/skypilot-catalog#185, which created the v9 folder.
SKYPILOT_V9_AS_OF = "2026-07-09"
# The Azure extract is a v6 file of unknown date; SkyPilot refreshes old schema folders too, so the
# v9 date says nothing about it. Its as_of is the date the extract was read.
AZURE_AS_OF = "2026-12-01"
AZURE_DATE_NOTE = (
    "Commit date unknown (the source is marked undated): as_of 2026-12-01 is the date the extract was "
    "read, the latest date these prices can be from, not the date they were set. "
    "Prices are a snapshot of public list prices, not current prices.")
SKYPILOT_REPO = "https://github.com/skypilot-org/skypilot-catalog"

# The catalog GPU models in catalog/gpus.yaml order (instances sort by it, as gpuplan's importer).
GPU_ORDER = ["T4", "V100", "V100-32GB", "A10", "A10G", "A100", "A100-80GB",
             "H100", "H200", "L4", "L40S", "H100-PCIe", "H100-NVL", "A100-80GB-PCIe",
             "A100-40GB-PCIe", "V100-PCIe", "L20", "RTX3090", "RTX4090", "RTX5090", "MI300X",
             "B200", "B300", "GB200"]
# Accelerator names of the feeds that are catalog GPU names (SkyPilot's own names for the rest).
FEED_NAMES = GPU_ORDER + ["H100-MEGA"]
# Instances whose accelerator name is the SXM model's but whose card is not (the same table as
# k_instance_gpus in src/feeds/skypilot_tables.hpp): (provider, instance type) -> catalog GPU.
INSTANCE_GPU = {
    ("lambda", "gpu_1x_h100_pcie"): "H100-PCIe",
    ("lambda", "gpu_1x_a100"): "A100-40GB-PCIe",
    ("lambda", "gpu_2x_a100"): "A100-40GB-PCIe",
    ("lambda", "gpu_4x_a100"): "A100-40GB-PCIe",
    ("azure", "Standard_NC40ads_H100_v5"): "H100-NVL",
    ("azure", "Standard_NC80adis_H100_v5"): "H100-NVL",
    ("azure", "Standard_NC24ads_A100_v4"): "A100-80GB-PCIe",
    ("azure", "Standard_NC48ads_A100_v4"): "A100-80GB-PCIe",
    ("azure", "Standard_NC96ads_A100_v4"): "A100-80GB-PCIe",
    ("azure", "Standard_NC6s_v3"): "V100-PCIe",
    ("azure", "Standard_NC12s_v3"): "V100-PCIe",
    ("azure", "Standard_NC24s_v3"): "V100-PCIe",
    ("azure", "Standard_NC24rs_v3"): "V100-PCIe",
}
# The HGX B200/B300 board: 8 GPUs on NVLink 5 (gpu-specs-2026 R1, R4).
HGX_BLACKWELL_NOTE = ("NVLink: the GPUs sit on an HGX Blackwell board (NVLink 5, 1.8 TB/s per GPU; "
                      "gpus.yaml s26-r1, s26-r4); network bandwidth not read")

# Common reserved-discount defaults: market survey (yobitel A100, 2026):
# on-demand $1.80-2.25, 1y $1.10-1.40, 3y $0.85-1.10 per GPU-hour.
# Midpoints 2.025 / 1.25 / 0.975 -> 1y 1 - 1.25/2.025 = 0.383, 3y 1 - 0.975/2.025 = 0.519.
MARKET_SOURCE = {
    "title": "NVIDIA A100 knowledge-base page (market pricing 2026)",
    "url": "https://www.yobitel.com/knowledge-base/nvidia-a100",
    "grade": "D",
    "note": ("derived: A100 per-GPU-hour midpoints on-demand 2.025 (1.80-2.25), "
             "1y 1.25 (1.10-1.40), 3y 0.975 (0.85-1.10) give 1y 1-1.25/2.025 = 0.38 "
             "and 3y 1-0.975/2.025 = 0.52 off; a market survey (grade E), not a "
             "price the provider published"),
}
MARKET_DISCOUNTS = [
    {"term": "1y", "payment": "no_upfront", "discount": "0.38", "source": "market-a100-2026", "default": True},
    {"term": "3y", "payment": "no_upfront", "discount": "0.52", "source": "market-a100-2026", "default": True},
]
PLACEHOLDER_HAZARD_NOTE = (
    "placeholder (UNVERIFIED): the provider publishes no interruption frequency and none was read; 0.05 per "
    "node-hour (a mean of 20 hours between interruptions) is the methodology's default, far more pessimistic "
    "than the AWS advisor bands read for GPU types (about 0.00007-0.0003); override it with --interruption-rate or a "
    "catalog overlay")
METHODOLOGY_SOURCE = {
    "title": "gpuplan cost methodology, section 8 default parameter table",
    "url": "urn:gpuplan:research:cost-methodology#8",
    "grade": "E",
    "note": ("placeholders marked UNVERIFIED in the methodology research: spot hazard "
             "0.05 per node-hour (stress 0.2), restart 15 minutes"),
}

# AWS baseline network bandwidth in Gbps (karpenter table, generated from the
# EC2 instance-type docs; values are the *baseline* Mbps / 1000, not the
# "up to" burst figure).
AWS_NETWORK = {
    "g4dn.xlarge": 5, "g4dn.2xlarge": 10, "g4dn.4xlarge": 20, "g4dn.8xlarge": 50,
    "g4dn.12xlarge": 50, "g4dn.16xlarge": 50, "g4dn.metal": 100,
    "g5.xlarge": 2.5, "g5.2xlarge": 5, "g5.4xlarge": 10, "g5.8xlarge": 25,
    "g5.16xlarge": 25, "g5.12xlarge": 40, "g5.24xlarge": 50, "g5.48xlarge": 100,
    "g6.xlarge": 2.5, "g6.2xlarge": 5, "g6.4xlarge": 10, "g6.8xlarge": 25,
    "g6.16xlarge": 25, "g6.12xlarge": 40, "g6.24xlarge": 50, "g6.48xlarge": 100,
    "g6e.xlarge": 2.5, "g6e.2xlarge": 5, "g6e.4xlarge": 20, "g6e.8xlarge": 25,
    "g6e.16xlarge": 35, "g6e.12xlarge": 100, "g6e.24xlarge": 200, "g6e.48xlarge": 400,
    "g6f.large": 1.5, "g6f.xlarge": 2.5, "g6f.2xlarge": 5, "g6f.4xlarge": 10,
    "gr6.4xlarge": 10, "gr6.8xlarge": 25, "gr6f.4xlarge": 10,
    "p3.2xlarge": 2.5, "p3.8xlarge": 10, "p3.16xlarge": 25, "p3dn.24xlarge": 100,
    "p4d.24xlarge": 400, "p4de.24xlarge": 400, "p5.4xlarge": 100,
    "p5.48xlarge": 3200, "p5e.48xlarge": 3200, "p5en.48xlarge": 3200,
}
AWS_NVLINK = {"p3.8xlarge", "p3.16xlarge", "p3dn.24xlarge", "p4d.24xlarge",
              "p4de.24xlarge", "p5.48xlarge", "p5e.48xlarge", "p5en.48xlarge",
              "p6-b200.48xlarge", "p6-b300.48xlarge"}
AWS_NOTES = {
    "p6-b200.48xlarge": ("from aws_blackwell_vms.csv (same file and commit); GpuInfo 183,359 MiB per GPU; "
                         + HGX_BLACKWELL_NOTE),
    "p6-b300.48xlarge": ("from aws_blackwell_vms.csv (same file and commit): one zone only (usw2-az2); GpuInfo "
                         "275,040 MiB per GPU; " + HGX_BLACKWELL_NOTE),
    "g6f.large": "fractional L4 (GPU partition 1/8); count kept as in source",
    "g6f.xlarge": "fractional L4 (GPU partition 1/8); count kept as in source",
    "g6f.2xlarge": "fractional L4 (GPU partition 1/4); count kept as in source",
    "g6f.4xlarge": "fractional L4 (GPU partition 1/2); count kept as in source",
    "gr6f.4xlarge": "fractional L4 (GPU partition 1/2); count kept as in source",
    "p3dn.24xlarge": "source GpuInfo names the GPU V100; AcceleratorName V100-32GB",
    "p4de.24xlarge": "source GpuInfo names the GPU A100; AcceleratorName A100-80GB",
    "p5e.48xlarge": "no on-demand price in the source for any region (spot only); one row with neither price was dropped",
    "g6e.xlarge": ("explicit reserved rates: modal-l40s (us-east-1, Aug 2025; day not stated, 2025-08-01 used); "
                   "on-demand 1.861 matches the catalog"),
}
# g6e.xlarge explicit reserved prices (modal-l40s): effective $/h.
AWS_RESERVED = {
    "g6e.xlarge": [
        {"term": "1y", "payment": "no_upfront", "effective_per_hour": "1.17", "region": "us-east-1", "source": "modal-l40s", "as_of": "2025-08-01"},
        {"term": "1y", "payment": "all_upfront", "effective_per_hour": "1.09", "region": "us-east-1", "source": "modal-l40s", "as_of": "2025-08-01"},
        {"term": "3y", "payment": "no_upfront", "effective_per_hour": "0.80", "region": "us-east-1", "source": "modal-l40s", "as_of": "2025-08-01"},
        {"term": "3y", "payment": "all_upfront", "effective_per_hour": "0.70", "region": "us-east-1", "source": "modal-l40s", "as_of": "2025-08-01"},
    ],
}


def aws_hazard(p):
    """Monthly interruption fraction p -> per instance-hour hazard."""
    return -math.log(1.0 - p) / 730.0


# AWS Spot Instance Advisor bands read by a third party (thundercompute,
# May 2025 and Feb 2026), per instance type: (band, p taken, read when).
# The value taken is the band's upper edge (a closed band's worst case).
AWS_SPOT_BANDS = {
    "p4d.24xlarge": ("5-10%", 0.10, "May 2025 and Feb 2026", "thundercompute-spot-2026"),
    "p5.48xlarge": ("15-20%", 0.20, "Feb 2026 (10-20% in May 2025)", "thundercompute-spot-2026"),
    "g6f.xlarge": ("5-10%", 0.10, "Feb 2026", "thundercompute-spot-2026"),
}
# L4: the May 2025 read gives "L4 <5%" without naming a size; applied to the g6 sizes.
AWS_SPOT_L4 = ("<5%", 0.05, "May 2025, reported for L4 without a size", "thundercompute-spot-2025")
AWS_L4_TYPES = {"g6.xlarge", "g6.2xlarge", "g6.4xlarge", "g6.8xlarge", "g6.16xlarge",
                "g6.12xlarge", "g6.24xlarge", "g6.48xlarge"}


def aws_spot_rate(t):
    band = AWS_SPOT_BANDS.get(t) or (AWS_SPOT_L4 if t in AWS_L4_TYPES else None)
    if band is None:
        return None
    label, p, when, source = band
    note = ("advisor band %s (%s); value = the band's upper edge p = %.2f, lambda = -ln(1-p)/730"
            % (label, when, p))
    return ("%.7f" % aws_hazard(p), source, note)


# GCP pairing of host VM types with accelerator rows (machine-type naming and
# matching zone lists; prices/README.md). g2 sizes: 4/8/12/16/32 = 1 L4,
# 24 = 2, 48 = 4, 96 = 8 (same table as SkyPilot's gcp_catalog.py).
GCP_PAIRS = {
    "a2-highgpu-1g": ("A100", 1), "a2-highgpu-2g": ("A100", 2),
    "a2-highgpu-4g": ("A100", 4), "a2-highgpu-8g": ("A100", 8),
    "a2-megagpu-16g": ("A100", 16),
    "a2-ultragpu-1g": ("A100-80GB", 1), "a2-ultragpu-2g": ("A100-80GB", 2),
    "a2-ultragpu-4g": ("A100-80GB", 4), "a2-ultragpu-8g": ("A100-80GB", 8),
    "a3-highgpu-1g": ("H100", 1), "a3-highgpu-2g": ("H100", 2),
    "a3-highgpu-4g": ("H100", 4), "a3-highgpu-8g": ("H100", 8),
    "a3-edgegpu-8g": ("H100", 8), "a3-edgegpu-8g-nolssd": ("H100", 8),
    "a3-megagpu-8g": ("H100-MEGA", 8),
    "a3-ultragpu-8g": ("H200", 8), "a3-ultragpu-8g-nolssd": ("H200", 8),
    "a4-highgpu-8g": ("B200", 8),
    "g2-standard-4": ("L4", 1), "g2-standard-8": ("L4", 1),
    "g2-standard-12": ("L4", 1), "g2-standard-16": ("L4", 1),
    "g2-standard-32": ("L4", 1), "g2-standard-24": ("L4", 2),
    "g2-standard-48": ("L4", 4), "g2-standard-96": ("L4", 8),
}
# Catalog GPU name for each SkyPilot accelerator name.
GCP_GPU = {"H100-MEGA": "H100"}
# T4 / V100 on N1: one documented host for every count (n1-highmem-8: 8 vCPU,
# 52 GiB). It fits every count's vCPU/memory limit (V100 x1 allows up to
# 12 vCPU / 78 GB; T4 x1 up to 48 vCPU; SkyPilot gcp_catalog.py table citing
# cloud.google.com/compute/docs/gpus) and is SkyPilot's default host for
# V100 x1 / T4 x2 (8 vCPU, >= 4 GiB per vCPU, cheapest n1 family).
GCP_N1_HOST = "n1-highmem-8"
GCP_N1_GPUS = ("T4", "V100")
# Network: per-size figures from the Compute Engine "network bandwidths and
# GPUs" page (older version, a2-highgpu table) and the current page
# (per-series maxima for A3).
GCP_MT = "gcp-gpu-machine-types"
GCP_NETWORK = {
    "a2-highgpu-1g": (24, GCP_MT), "a2-highgpu-2g": (32, GCP_MT),
    "a2-highgpu-4g": (50, GCP_MT), "a2-highgpu-8g": (100, GCP_MT),
    "a2-megagpu-16g": (100, GCP_MT),
    "a2-ultragpu-1g": (24, GCP_MT), "a2-ultragpu-2g": (32, GCP_MT),
    "a2-ultragpu-4g": (50, GCP_MT), "a2-ultragpu-8g": (100, GCP_MT),
    "a3-highgpu-1g": (25, GCP_MT), "a3-highgpu-2g": (50, GCP_MT),
    "a3-highgpu-4g": (100, GCP_MT), "a3-highgpu-8g": (1000, GCP_MT),
    "a3-edgegpu-8g": (400, GCP_MT), "a3-edgegpu-8g-nolssd": (400, GCP_MT),
    "a3-megagpu-8g": (1800, GCP_MT),
    "a3-ultragpu-8g": (3600, GCP_MT), "a3-ultragpu-8g-nolssd": (3600, GCP_MT),
    "g2-standard-4": (10, GCP_MT), "g2-standard-8": (16, GCP_MT), "g2-standard-12": (16, GCP_MT),
    "g2-standard-16": (32, GCP_MT), "g2-standard-24": (32, GCP_MT), "g2-standard-32": (32, GCP_MT),
    "g2-standard-48": (50, GCP_MT), "g2-standard-96": (100, GCP_MT),
}
# Attached Local SSD in GiB per machine type (same page); written as GB
# (x 1.073741824). Types that only "support" Local SSD (a2-highgpu, g2) get none.
GCP_LOCAL_SSD_GIB = {
    "a2-ultragpu-1g": 375, "a2-ultragpu-2g": 750, "a2-ultragpu-4g": 1500, "a2-ultragpu-8g": 3000,
    "a3-highgpu-1g": 750, "a3-highgpu-2g": 1500, "a3-highgpu-4g": 3000, "a3-highgpu-8g": 6000,
    "a3-megagpu-8g": 6000, "a3-edgegpu-8g": 6000, "a3-ultragpu-8g": 12000,
}


def gib_to_gb(gib):
    return "%.2f" % (gib * 1.073741824)
GCP_NVLINK_PREFIXES = ("a2-", "a3-", "a4-")
# Rows of the snapshot left out of the shipped catalog: priced at about half of the same machine
# type in the type's other regions, the host-row error that Google's dated list showed on
# a3-highgpu-8g in the same regions (catalog/providers/gcp_list.yaml), with no dated list that
# prices these types there. Shipping them would rank a price known to be wrong; leaving them out
# leaves the region unpriced (docs/methodology.md, "C9d").
GCP_HALF_PRICE = ("on-demand about half of this type's price in its other regions (the snapshot's "
                  "host-row error that Google's dated list showed on a3-highgpu-8g), and no dated list "
                  "prices it here")
GCP_LEFT_OUT = {
    "a3-edgegpu-8g": ({"asia-northeast1", "asia-southeast1", "europe-west2", "europe-west9",
                       "northamerica-northeast2", "us-central1", "us-west1", "us-west4"},
                      GCP_HALF_PRICE + "; in its five other regions the type equals a3-highgpu-8g's list exactly"),
    "a3-edgegpu-8g-nolssd": ({"asia-northeast1", "asia-southeast1", "europe-west2", "europe-west9",
                              "northamerica-northeast2", "us-central1", "us-west1", "us-west4"},
                             GCP_HALF_PRICE + "; in its five other regions the type equals a3-highgpu-8g's list exactly"),
    "a3-megagpu-8g": ({"asia-east1", "europe-north1"}, GCP_HALF_PRICE),
    "a3-ultragpu-8g": ({"asia-south2", "us-east5", "us-south1"}, GCP_HALF_PRICE),
    "a3-ultragpu-8g-nolssd": ({"asia-south2", "us-east5", "us-south1"}, GCP_HALF_PRICE),
}

GCP_NOTES = {
    "a4-highgpu-8g": ("the source prices the A4 host rows at 0.0 (on-demand and spot), so the B200 accelerator row "
                      "carries the whole price (our reading); asia-southeast1's 154.656 is 2.4 times the type's price in its other "
                      "regions (64.44 or 90.216) and no dated list was found to check it; kept, as a price too high to be "
                      "ranked first, not corrected; " + HGX_BLACKWELL_NOTE),
    "a3-ultragpu-8g": "network 3600 Gbps = 8 CX-7 NICs (3200 Gbps GPU-to-GPU RDMA) + 400 Gbps gVNIC",
    "a3-highgpu-8g": "network: maximum 1,000 Gbps over 5 physical NICs (GPU machine types page)",
    "a3-megagpu-8g": ("GPU price from the H100-MEGA accelerator rows (GCP's a3-megagpu name); catalog GPU is H100; "
                      "network: maximum 1,800 Gbps over 9 physical NICs (an earlier read of the network-bandwidth "
                      "page gave 1,600)"),
    "a3-edgegpu-8g": ("network: maximum 400 Gbps (600 in asia-south1 and northamerica-northeast2); an earlier read "
                      "of the network-bandwidth page gave 800"),
    "a3-edgegpu-8g-nolssd": ("network: maximum 400 Gbps (600 in asia-south1 and northamerica-northeast2); no Local "
                             "SSD on this variant"),
    "a3-ultragpu-8g-nolssd": ("network 3600 Gbps = 8 CX-7 NICs (3200 Gbps GPU-to-GPU RDMA) + 400 Gbps gVNIC; no Local "
                              "SSD on this variant"),
}

AZURE_NETWORK = {
    "Standard_ND96isr_H100_v5": (3200, "azure-ndv5"),
    "Standard_ND96asr_v4": (1600, "azure-nda100v4"),
    "Standard_ND96amsr_A100_v4": (1600, "azure-ndma100v4"),
    "Standard_ND40rs_v2": (100, "azure-ndv2"),
    "Standard_NC24ads_A100_v4": (20, "azure-nca100v4"),
    "Standard_NC48ads_A100_v4": (40, "azure-nca100v4"),
    "Standard_NC96ads_A100_v4": (80, "azure-nca100v4"),
    "Standard_NC40ads_H100_v5": (40, "azure-ncadsh100v5"),
    "Standard_NC80adis_H100_v5": (80, "azure-ncadsh100v5"),
    "Standard_NC4as_T4_v3": (8, "azure-ncast4v3"),
    "Standard_NC8as_T4_v3": (8, "azure-ncast4v3"),
    "Standard_NC16as_T4_v3": (8, "azure-ncast4v3"),
    "Standard_NC64as_T4_v3": (32, "azure-ncast4v3"),
    "Standard_NV36ads_A10_v5": (40, "azure-nvadsa10v5"),
    "Standard_NV36adms_A10_v5": (80, "azure-nvadsa10v5"),
    "Standard_NV72ads_A10_v5": (80, "azure-nvadsa10v5"),
}
# Temp storage (SSD) in GiB from the size tables, written as GB.
AZURE_LOCAL_GIB = {
    "Standard_NC6s_v3": (736, "azure-ncv3"), "Standard_NC12s_v3": (1474, "azure-ncv3"),
    "Standard_NC24s_v3": (2948, "azure-ncv3"), "Standard_NC24rs_v3": (2948, "azure-ncv3"),
    "Standard_ND96asr_v4": (6000, "azure-nda100v4-sizes"),
}
AZURE_NVLINK = {"Standard_ND96isr_H100_v5", "Standard_ND96asr_v4",
                "Standard_ND96amsr_A100_v4", "Standard_ND40rs_v2"}
AZURE_GPU_COUNT_FIX = {"Standard_ND96isr_H100_v5": ("12", 8)}
AZURE_NOTES = {
    "Standard_ND96isr_H100_v5": (
        "source lists 12 GPUs; 8 written: Microsoft lists the size as 96 vCPUs, 1900 GB RAM, 8 GPUs "
        "(ms-aspire-ndh100v5) and the ND H100 v5 series starts with eight H100 GPUs per VM (azure-ndv5); "
        "network = 8 x 400 Gb/s InfiniBand; spot equals on-demand in the source"),
    "Standard_ND96asr_v4": ("network = 8 x 200 Gb/s HDR InfiniBand (1.6 Tb/s per VM), configured between VMs of one "
                            "VM scale set; local disk = 6,000 GiB temp SSD (azure-nda100v4-sizes)"),
    "Standard_NC24rs_v3": ("RDMA capable (InfiniBand) per azure-ncv3, bandwidth not stated; local disk = 2,948 GiB "
                           "temp SSD"),
    "Standard_NC6s_v3": "local disk = 736 GiB temp SSD (azure-ncv3); network bandwidth not stated",
    "Standard_NC12s_v3": "local disk = 1,474 GiB temp SSD (azure-ncv3); network bandwidth not stated",
    "Standard_NC24s_v3": "local disk = 2,948 GiB temp SSD (azure-ncv3); network bandwidth not stated",
    "Standard_ND96amsr_A100_v4": "network = 8 x 200 Gb/s HDR InfiniBand (1.6 Tb/s per VM)",
    "Standard_ND40rs_v2": "network = 100 Gb/s EDR InfiniBand",
    "Standard_NC40ads_H100_v5": "spot equals on-demand in the source",
    "Standard_NC80adis_H100_v5": "spot equals on-demand in the source",
}

LAMBDA_NOTES = {
    "gpu_1x_h100_pcie": "the H100 PCIe card (catalog GPU H100-PCIe: 756 dense BF16, 2,000 GB/s), not the SXM H100",
    "gpu_1x_a100": ("planned as the A100 40 GB PCIe (catalog A100-40GB-PCIe): the name has no sxm4 suffix and Lambda "
                    "lists its 1x/2x/4x A100 as PCIe cards (that list was not read here: UNVERIFIED)"),
    "gpu_2x_a100": ("planned as the A100 40 GB PCIe (catalog A100-40GB-PCIe), see gpu_1x_a100; interconnect not "
                    "stated in the source"),
    "gpu_4x_a100": ("planned as the A100 40 GB PCIe (catalog A100-40GB-PCIe), see gpu_1x_a100; interconnect not "
                    "stated in the source"),
    "gpu_1x_b200_sxm6": "from lambda_b200_vms.csv (same file and commit)",
    "gpu_2x_b200_sxm6": "from lambda_b200_vms.csv (same file and commit); " + HGX_BLACKWELL_NOTE,
    "gpu_8x_b200_sxm6": "from lambda_b200_vms.csv (same file and commit); " + HGX_BLACKWELL_NOTE,
    "gpu_8x_a100": "interconnect not stated in the source",
    "gpu_8x_v100": "interconnect not stated in the source; source TotalGpuMemoryInMiB is one GPU's memory",
    "gpu_8x_v100_n": "interconnect not stated in the source; source TotalGpuMemoryInMiB is one GPU's memory",
}


def lambda_nvlink(t, count):
    return "sxm" in t and count > 1


NEBIUS_NVLINK = {"gpu-h100-sxm_8gpu-128vcpu-1600gb", "gpu-h200-sxm_8gpu-128vcpu-1600gb"}
NEBIUS_B200 = {"gpu-b200-sxm-a_8gpu-160vcpu-1792gb", "gpu-b200-sxm_8gpu-160vcpu-1792gb"}
# 8-GPU presets: 3.2 Tbit/s InfiniBand per host (8 x 400 Gbit/s), for VMs placed in a GPU cluster.
NEBIUS_NETWORK = {t: (3200, "nebius-site-summary") for t in NEBIUS_NVLINK}
NEBIUS_NOTES = {t: ("network: 3.2 Tbit/s InfiniBand per host (8 x 400 Gbit/s NICs), used between VMs placed in "
                    "the same Nebius GPU cluster (a free grouping of VMs in one InfiniBand fabric)")
                for t in NEBIUS_NVLINK}
NEBIUS_NOTES.update({t: "from nebius_b200_vms.csv (same file and commit); " + HGX_BLACKWELL_NOTE for t in NEBIUS_B200})
# Published H100 reserve prices per GPU-hour (nebius-site-summary); commitments are
# generally prepaid (nebius-commitments), so all_upfront. Term lengths other than
# 1 and 3 years (3 and 6 months) are not representable and are left out.
NEBIUS_H100_RESERVE = [("1y", "2.94"), ("3y", "2.12")]
NEBIUS_RESERVE_AS_OF = "2026-03-16"

OCI_NETWORK = {
    "BM.GPU4.8": (1600, "8 x 200 Gbps RDMA (plus 1 x 50 Gbps front-end)"),
    "BM.GPU.A100-v2.8": (1600, "16 x 100 Gbps RDMA (plus 2 x 50 Gbps front-end)"),
    "BM.GPU.H100.8": (3200, "8 x 2 x 200 Gbps RDMA (plus 1 x 100 Gbps front-end)"),
    "BM.GPU.H200.8": (3200, "8 x 400 Gbps RDMA (plus 1 x 200 Gbps front-end)"),
    "BM.GPU.L40S.4": (800, "800 Gbps RDMA (plus 1 x 200 Gbps front-end)"),
    "BM.GPU3.8": (50, "2 x 25 Gbps"),
    "BM.GPU.A10.4": (100, "2 x 50 Gbps"),
    "VM.GPU3.1": (4, None), "VM.GPU3.2": (8, None), "VM.GPU3.4": (24.6, None),
    "VM.GPU.A10.1": (24, None), "VM.GPU.A10.2": (48, None),
}
OCI_NVLINK = {"BM.GPU4.8", "BM.GPU.A100-v2.8", "BM.GPU.H100.8", "BM.GPU.H200.8"}


def skypilot_source(cloud, version, commit, grade="R", extra="", date_note=SKYPILOT_DATE_NOTE):
    path = "catalogs/%s/%s/vms.csv" % (version, cloud)
    note = "%s @ %s. %s" % (path, commit, date_note)
    if extra:
        note += " " + extra
    return {
        "title": "SkyPilot catalog %s %s vms.csv (GPU rows, extract)" % (version, cloud),
        "url": "%s/blob/%s/%s" % (SKYPILOT_REPO, commit, path),
        "grade": grade,
        "note": note,
        "undated": True,
        **({"as_of": SKYPILOT_V9_AS_OF} if version == "v9" and date_note == SKYPILOT_DATE_NOTE else {}),
    }


PROVIDERS = {
    "aws": {
        "display_name": "Amazon Web Services",
        "csv": "aws_gpu_vms.csv",
        "extra_csv": ["aws_blackwell_vms.csv"],
        "source_id": "skypilot-aws-v9",
        "sources": {
            "skypilot-aws-v9": skypilot_source("aws", "v9", "2c3d7ea7d76bf84cf80d382e946c1609571485fd"),
            "aws-ec2-pricing": {
                "title": "Amazon EC2 on-demand pricing page (public copy): per-second billing, data transfer tiers",
                "url": "https://aws.amazon.com/ec2/pricing/",
                "grade": "P",
                "note": ("per-second billing with a 60 s minimum (Linux); egress example is the Middle East (UAE) "
                         "region: first 100 GB/month free, then 0.11 USD/GB for the first 10 TB; the US-region "
                         "rate (~0.09) is UNVERIFIED; cost-methodology S43"),
            },
            "aws-spot-advisor": {
                "title": "AWS Spot Instance Advisor interruption-frequency bands (commitments-and-spot.md 4.1)",
                "url": "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json",
                "grade": "D",
                "note": ("derived: the advisor gives a monthly interruption-frequency band per type and region "
                         "(<5%%, 5-10%%, 10-15%%, 15-20%%, >20%%); a monthly fraction p becomes a per-instance-hour "
                         "hazard lambda = -ln(1-p)/730. The '>20%%' band has no upper bound. The live file was not "
                         "fetched; per-type bands come from third-party reads (thundercompute-spot-2025/-2026). "
                         "Provider default (types with no band read): placeholder p = 0.20 -> lambda = %.7f, the "
                         "upper edge of the worst band read for an AWS GPU type (p5.48xlarge 15-20%%, Feb 2026)"
                         % aws_hazard(0.20)),
            },
            "thundercompute-spot-2025": {
                "title": "Thunder Compute: should I use cloud GPU spot instances? (AWS Spot Advisor bands read May 2025)",
                "url": "https://www.thundercompute.com/blog/should-i-use-cloud-gpu-spot-instances",
                "grade": "R",
                "note": "p4d (A100) 5-10%, L4 <5%, p5 (H100) 10-20% interruption frequency per month (commitments-and-spot.md 4.1)",
            },
            "thundercompute-spot-2026": {
                "title": "Thunder Compute: cloud GPU spot instance availability (AWS Spot Advisor bands read Feb 2026)",
                "url": "https://www.thundercompute.com/blog/cloud-gpu-spot-instance-availability",
                "grade": "R",
                "note": "p4d.24xlarge 5-10%, p5.48xlarge 15-20%, g6f.xlarge 5-10% per month (commitments-and-spot.md 4.1)",
            },
            "aws-spot-notice": {
                "title": "AWS: Spot Instance interruption notices (two-minute warning)",
                "url": "https://docs.aws.amazon.com/aws-technical-content/latest/cost-optimization-leveraging-ec2-spot-instances/managing-instance-termination.html",
                "grade": "P",
            },
            "methodology": METHODOLOGY_SOURCE,
            "modal-l40s": {
                "title": "Modal blog: NVIDIA L40S price (g6e.xlarge on-demand, RI and spot, us-east-1)",
                "url": "https://modal.com/blog/nvidia-l40s-price-article",
                "grade": "R",
                "note": ("g6e.xlarge on-demand 1.861; RI 1y no-upfront ~1.17 (-37%), 1y all-upfront ~1.09 (-41%), "
                         "3y no-upfront ~0.80 (-57%), 3y all-upfront ~0.70 (-62%); Aug 2025 (day not stated). "
                         "One instance's data, applied to all instances as default discounts"),
            },
            "karpenter-bandwidth": {
                "title": "Karpenter AWS provider: generated instance-type baseline network bandwidth table (Mbps)",
                "url": ("https://github.com/aws/karpenter-provider-aws/blob/01a436f0bbbc75a1252aba1a3a48ca115b7e6cc0/"
                        "pkg/providers/instancetype/zz_generated.bandwidth.go"),
                "grade": "R",
                "note": ("generated from the EC2 instance-type documentation; baseline bandwidth (not the 'up to' "
                         "burst figure), Mbps / 1000 = Gbps. Cross-checked with the AWS EC2 user guide (awsdocs "
                         "accelerated-computing-instances.md): p3.8xlarge 10, p3.16xlarge 25, p3dn.24xlarge 100, "
                         "g4dn.8xlarge-16xlarge 50, g4dn.metal 100, p4d.24xlarge 4x100 Gbps; and the AWS Batch "
                         "GPU-jobs page for g5 sizes"),
            },
        },
        "billing": {"granularity_seconds": 1, "minimum_seconds": 60, "source": "aws-ec2-pricing"},
        "spot": {
            "interruption_rate_per_node_hour": ("%.7f" % aws_hazard(0.20), "aws-spot-advisor",
                                                "placeholder for types with no advisor band read: p = 0.20 per "
                                                "month, the upper edge of the worst band read for an AWS GPU type "
                                                "(p5.48xlarge 15-20%); a type in the open '>20%' band is "
                                                "interrupted more often than this"),
            "notice_seconds": ("120", "aws-spot-notice"),
            "restart_minutes": ("15", "methodology"),
        },
        "reserved_discounts": [
            {"term": "1y", "payment": "no_upfront", "discount": "0.37", "source": "modal-l40s", "default": True},
            {"term": "1y", "payment": "all_upfront", "discount": "0.41", "source": "modal-l40s", "default": True},
            {"term": "3y", "payment": "no_upfront", "discount": "0.57", "source": "modal-l40s", "default": True},
            {"term": "3y", "payment": "all_upfront", "discount": "0.62", "source": "modal-l40s", "default": True},
        ],
        "egress_per_gb": ("0.11", "aws-ec2-pricing"),
    },
    "gcp": {
        "display_name": "Google Cloud",
        "csv": "gcp_gpu_vms.csv",
        "extra_csv": ["gcp_b200_vms.csv"],
        "source_id": "skypilot-gcp-v9",
        "sources": {
            "skypilot-gcp-v9": skypilot_source(
                "gcp", "v9", "2c3d7ea7d76bf84cf80d382e946c1609571485fd", grade="D",
                extra=("Instance price = accelerator row (GPU price) + host row (vCPU and RAM price) in the same "
                       "zone, on-demand and spot separately (derived sum); no spot when either part has none.")),
            "skypilot-gcp-v9-n1": skypilot_source(
                "gcp", "v9", "2c3d7ea7d76bf84cf80d382e946c1609571485fd", grade="D",
                extra=("n1-highmem-8 host rows (8 vCPU, 52 GiB, 87 zones) read from the same file at character "
                       "offset 1,200,000 and added to the T4/V100 accelerator rows (derived sum).")),
            "skypilot-gcp-code": {
                "title": "SkyPilot sky/catalog/gcp_catalog.py: GPU-to-host tables",
                "url": "https://github.com/skypilot-org/skypilot/blob/005261080a6b8102f3d95ff2147a855250f40272/sky/catalog/gcp_catalog.py",
                "grade": "R",
                "note": ("g2-standard-4/8/12/16/32 = 1 L4, 24 = 2, 48 = 4, 96 = 8; N1 limits per GPU count "
                         "(V100 x1: 12 vCPU / 78 GB ... T4 x1: 48 vCPU), citing cloud.google.com/compute/docs/gpus; "
                         "default host: >= 8 vCPU (V100 x1), >= 4 GiB per vCPU, cheapest n1 family"),
            },
            "gcp-gpu-machine-types": {
                "title": "Compute Engine: GPU machine types (per machine type: vCPU, memory, attached Local SSD, maximum network bandwidth)",
                "url": "https://cloud.google.com/compute/docs/gpus",
                "grade": "P",
                "note": ("read as the copy served for S3NS (documentation.s3ns.fr/compute/docs/gpus, 'Last updated "
                         "2026-08-26'; the copy warns that some details may not apply to S3NS). Maximum egress Gbps: "
                         "a2-highgpu/a2-ultragpu 1g 24, 2g 32, 4g 50, 8g 100; a2-megagpu-16g 100; a3-highgpu 1g 25, "
                         "2g 50, 4g 100, 8g 1,000; a3-megagpu-8g 1,800; a3-edgegpu-8g 400 (600 in asia-south1, "
                         "northamerica-northeast2); a3-ultragpu-8g 3,600; g2-standard-4 10, -8/-12 16, -16/-24/-32 "
                         "32, -48 50, -96 100. Attached Local SSD GiB: a2-ultragpu 375 per GPU; a3-highgpu 750 per "
                         "GPU; a3-mega and a3-edge 6,000; a3-ultra 12,000. Earlier reads of the network-bandwidth "
                         "page gave A3 Mega 1,600 and A3 Edge 800"),
            },
            "gcp-billing": {
                "title": "Google Cloud course 'Essential Google Cloud Infrastructure: Foundation', Compute pricing (transcript)",
                "url": "https://campus.datacamp.com/courses/essential-google-cloud-infrastructure-foundation/virtual-machines?ex=9",
                "grade": "R",
                "note": ("'All vCPUs, GPUs, and GB of memory are charged a minimum of 1 minute ... After 1 minute, "
                         "instances are charged in 1-second increments' (Google's course text as republished); the "
                         "Compute Engine pricing page itself was not read"),
            },
            "methodology": METHODOLOGY_SOURCE,
            "gcp-spot-notice": {
                "title": "Thunder Compute: cloud GPU spot instance availability (GCP preemption notice up to 30 s)",
                "url": "https://www.thundercompute.com/blog/cloud-gpu-spot-instance-availability",
                "grade": "R",
                "note": "best-effort preemption notice of up to 30 seconds; the Google page for this was not read",
            },
            "gcp-cud": {
                "title": "GCP committed use discounts (training page): resource-based CUD 37% (1y) / 55% (3y)",
                "url": "https://lillytechsystems.com/ai-school/gcp-ai-cost/cuds.html",
                "grade": "E",
                "note": ("third-party page; no Google-published GPU CUD percentage was read. Resource-based CUDs "
                         "are billed monthly (no upfront) and cannot be cancelled (archera, littlepig)"),
            },
        },
        "billing": {"granularity_seconds": 1, "minimum_seconds": 60, "source": "gcp-billing"},
        "spot": {
            "interruption_rate_per_node_hour": ("0.05", "methodology", PLACEHOLDER_HAZARD_NOTE),
            "notice_seconds": ("30", "gcp-spot-notice"),
            "restart_minutes": ("15", "methodology"),
        },
        "reserved_discounts": [
            {"term": "1y", "payment": "no_upfront", "discount": "0.37", "source": "gcp-cud", "default": True},
            {"term": "3y", "payment": "no_upfront", "discount": "0.55", "source": "gcp-cud", "default": True},
        ],
    },
    "azure": {
        "display_name": "Microsoft Azure",
        "csv": "azure_gpu_vms.csv",
        "as_of": AZURE_AS_OF,
        "source_id": "skypilot-azure-v6",
        "sources": {
            "skypilot-azure-v6": skypilot_source(
                "azure", "v6", "098741e70562f65d7af1cceb81e33b284f742604", date_note=AZURE_DATE_NOTE,
                extra="Old v6 schema, US regions only (no newer Azure file in the index)."),
            "ms-aspire-ndh100v5": {
                "title": "Microsoft Aspire AKS VM-size reference: StandardNDsH100v5 (96 vCPUs, 1900 GB RAM, 8 GPUs)",
                "url": "https://aspire.dev/reference/api/csharp/aspire.hosting.azure.kubernetes/standardndsh100v5/fields.md",
                "grade": "P",
            },
            "azure-ndv5": {
                "title": "Azure docs: ND H100 v5-series (8 H100 per VM, 400 Gb/s InfiniBand per GPU, 3.2 Tb/s per VM)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/ndv5-series.md",
                "grade": "P",
            },
            "azure-nda100v4": {
                "title": "Azure docs: ND A100 v4-series (8 A100 40GB, 200 Gb/s HDR InfiniBand per GPU, 1.6 Tb/s per VM)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/nda100-v4-series.md",
                "grade": "P",
            },
            "azure-ndma100v4": {
                "title": "Azure docs: NDm A100 v4-series summary (8 A100 80GB, 200 Gb HDR InfiniBand per GPU, 1.6 Tb per VM)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/sizes/gpu-accelerated/includes/ndma100v4-series-summary.md",
                "grade": "P",
                "note": "the page writes GB/s and TB/s; the 2021 ND A100 v4 page writes Gb/s and Tb/s for the same fabric",
            },
            "azure-ndv2": {
                "title": "Azure docs: NDv2-series (8 V100 32GB NVLink, 100 Gb/s EDR InfiniBand)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/main/articles/virtual-machines/ndv2-series.md",
                "grade": "P",
            },
            "azure-nca100v4": {
                "title": "Azure docs: NC_A100_v4 sizes, network tab (max bandwidth Mbps)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/dcab08d773bdc35e85e1cc5324ace584f7517884/articles/virtual-machines/sizes/gpu-accelerated/nca100v4-series.md",
                "grade": "P",
            },
            "azure-ncadsh100v5": {
                "title": "Azure docs: NCads_H100_v5 sizes, network tab (max bandwidth Mbps)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/02affc86f41ba9094cf5cfbe0727a30b758f516e/articles/virtual-machines/sizes/gpu-accelerated/ncadsh100v5-series.md",
                "grade": "P",
                "note": "the size table lists 94 GB accelerator memory per GPU, so not the 80 GB SXM H100 the catalog describes",
            },
            "azure-ncast4v3": {
                "title": "Azure docs: NCasT4_v3 sizes, network tab (max bandwidth Mbps)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/dcab08d773bdc35e85e1cc5324ace584f7517884/articles/virtual-machines/sizes/gpu-accelerated/ncast4v3-series.md",
                "grade": "P",
            },
            "azure-nvadsa10v5": {
                "title": "Azure docs: NVadsA10_v5 sizes, network tab (max bandwidth Mbps)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/de83e2ca3647630a3bcf5ca2c32ed482b25ffddb/articles/virtual-machines/sizes/gpu-accelerated/nvadsa10v5-series.md",
                "grade": "P",
            },
            "methodology": METHODOLOGY_SOURCE,
            "azure-ncv3": {
                "title": "Azure docs: NCv3-series (V100; size table with temp storage (SSD) GiB; NC24rs_v3 RDMA capable)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/01111677e5be6f231b5500c605d4458ff603f80a/articles/virtual-machines/ncv3-series.md",
                "grade": "P",
                "note": "temp storage (SSD): NC6s_v3 736, NC12s_v3 1,474, NC24s_v3 and NC24rs_v3 2,948 GiB; no network bandwidth figure in the page",
            },
            "azure-nda100v4-sizes": {
                "title": "Azure docs: ND A100 v4-series size table (temp storage (SSD) 6,000 GiB; max network bandwidth 24,000 Mbps)",
                "url": "https://github.com/MicrosoftDocs/azure-docs/blob/0300cb444a63a1520ed236bbd4e481f09710630f/articles/virtual-machines/nda100-v4-series.md",
                "grade": "P",
                "note": "ms.date 2021-03-13 revision 2023; the 24,000 Mbps is the Ethernet front end, the 8 x 200 Gb HDR InfiniBand (1.6 Tb/s) is the GPU fabric",
            },
            "azure-spot-docs": {
                "title": "Azure Spot Virtual Machines (eviction with 30 seconds notice)",
                "url": "https://learn.microsoft.com/en-us/azure/virtual-machines/spot-vms",
                "grade": "P",
            },
            "market-a100-2026": MARKET_SOURCE,
        },
        "spot": {
            "interruption_rate_per_node_hour": ("0.05", "methodology", PLACEHOLDER_HAZARD_NOTE),
            "notice_seconds": ("30", "azure-spot-docs"),
            "restart_minutes": ("15", "methodology"),
        },
        "reserved_discounts": MARKET_DISCOUNTS,
    },
    "lambda": {
        "display_name": "Lambda",
        "csv": "lambda_gpu_vms.csv",
        "extra_csv": ["lambda_b200_vms.csv"],
        "source_id": "skypilot-lambda-v9",
        "sources": {
            "skypilot-lambda-v9": skypilot_source("lambda", "v9", "2c3d7ea7d76bf84cf80d382e946c1609571485fd",
                                                  extra="Same price in all 17 regions; no spot market."),
            "market-a100-2026": MARKET_SOURCE,
            "lambda-billing": {
                "title": "Lambda docs: Billing (On-Demand Cloud instances and 1-Click Clusters)",
                "url": "https://docs.lambda.ai/public-cloud/billing",
                "grade": "P",
                "note": ("'ODC prices instances by hourly usage and bills in one-minute increments'; 1-Click Clusters "
                         "(1CCs) are a separate product, 'priced per GPU per hour and billed in weekly increments "
                         "according to the terms of your reservation'. Page undated (read 2026)"),
            },
        },
        "billing": {"granularity_seconds": 60, "minimum_seconds": 0, "source": "lambda-billing"},
        "reserved_discounts": MARKET_DISCOUNTS,
    },
    "nebius": {
        "display_name": "Nebius AI Cloud",
        "csv": "nebius_gpu_vms.csv",
        "extra_csv": ["nebius_b200_vms.csv"],
        "source_id": "skypilot-nebius-v9",
        "sources": {
            "skypilot-nebius-v9": skypilot_source("nebius", "v9", "d9bf3aa4d21f5c1e1f3d8fde27adf0204c46fbc8",
                                                  extra="Spot (preemptible) prices exist for the H100 and H200 types only."),
            "nebius-preemptible": {
                "title": "Nebius docs: preemptible virtual machines (SIGTERM 60 seconds before stop)",
                "url": "https://docs.nebius.com/compute/virtual-machines/preemptible",
                "grade": "P",
            },
            "methodology": METHODOLOGY_SOURCE,
            "market-a100-2026": MARKET_SOURCE,
            "nebius-billing-unit": {
                "title": "Nebius docs: how charges and prices work (billing unit and pricing unit)",
                "url": "https://docs.nebius.com/object-storage/resources/pricing",
                "grade": "P",
                "note": ("'for GPUs on running VMs, the billing unit is 1 second, and the pricing unit is 1 hour'; "
                         "stated in the general part of the Object Storage pricing page (the Compute pricing page "
                         "was not read)"),
            },
            "nebius-commitments": {
                "title": "Nebius docs: commitment discounts billing model (prepaid commitments for companies)",
                "url": "https://docs.nebius.com/signup-billing/billing-models/committed-usage",
                "grade": "P",
                "note": ("commitments cover GPUs, vCPUs and RAM of Compute VM platforms for a set period (example: "
                         "365 days of 64 VMs with 8 H100); 'Generally, the commitment discounts are prepaid'; only "
                         "for companies, through the sales team"),
            },
            "nebius-site-summary": {
                "title": "Digest of nebius.com product and price pages (HGX H100/H200 specs, commitment and reserve prices)",
                "url": "urn:gpuplan:research:code-index-file:58232393600",
                "grade": "R",
                "note": ("a machine-written summary of 748 stored nebius.com pages (read through the code index, "
                         "file id 58232393600; repository and path not shown; latest event it mentions is "
                         "2026-03-16). HGX H100 and H200: '1x or 8x GPU ... 200 or 1,600 GB DDR5; 3.2 Tbit/s "
                         "InfiniBand'; networking 'NVIDIA Quantum-2 InfiniBand: up to 3.2 Tbit/s per host, 400 "
                         "Gbit/s per GPU NIC'. H100 on-demand 2.95 per GPU-hour, 'commitment' 2.00; H100 reserve "
                         "per GPU-hour: 3-year 2.12, 1-year 2.94, 6-month 3.20, 3-month 3.34; H200 commitment 2.30 "
                         "(term not stated). Not the price page itself: check before relying on it"),
            },
        },
        "billing": {"granularity_seconds": 1, "minimum_seconds": 0, "source": "nebius-billing-unit"},
        "spot": {
            "interruption_rate_per_node_hour": ("0.05", "methodology", PLACEHOLDER_HAZARD_NOTE),
            "notice_seconds": ("60", "nebius-preemptible"),
            "restart_minutes": ("15", "methodology"),
        },
        "reserved_discounts": MARKET_DISCOUNTS,
    },
    "oci": {
        "display_name": "Oracle Cloud Infrastructure",
        "csv": "oci_gpu_vms_partial.csv",
        "source_id": "skypilot-oci-v9",
        "sources": {
            "skypilot-oci-v9": skypilot_source(
                "oci", "v9", "a5be53865774cac59df537ba1842e45ffc8be722",
                extra=("Partial: only the first 16,000 characters were read (eu-amsterdam-1, eu-stockholm-1); "
                       "the source repeats the same shapes and prices for about 29 region blocks.")),
            "oci-computeshapes": {
                "title": "OCI docs: Compute Shapes (GPU bare metal and VM tables, max network bandwidth), crawl updated 2025-02-13",
                "url": "https://docs.oracle.com/en-us/iaas/Content/Compute/References/computeshapes.htm",
                "grade": "P",
                "note": "read as the crawl jacklty/oci_doc_crawler iaas/Content/Compute/References/computeshapes.md @ 8e7bbd72",
            },
            "market-a100-2026": MARKET_SOURCE,
        },
        "reserved_discounts": MARKET_DISCOUNTS,
    },
}

PROVIDER_NOTES = {
    "aws": ("Every CSV row of the ten GPU models is one price row (zone = AWS zone id; Local Zones such as "
            "usw2-lax1-az1 are listed under their parent region as in the source). Rows with neither price are "
            "dropped: {dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. Spot hazard: per-instance rates where a Spot Advisor band was read (p4d.24xlarge, "
            "p5.48xlarge, g6f.xlarge, g6 sizes; value = the band's upper edge); the provider default for every "
            "other type is a placeholder (see its note). egress_per_gb 0.11 is the Middle East (UAE) "
            "first-10-TB tier, not a US rate. Reserved defaults are one instance's (g6e.xlarge) RI data applied "
            "to all."),
    "gcp": ("Instance prices are derived sums of a GPU (accelerator) row and a host-VM row in the same zone. "
            "Spot is above on-demand in some zones for A100/H100/H200 (as in the source). T4 and V100 attach to "
            "N1 VMs: they are priced on one documented host, n1-highmem-8 (8 vCPU, 52 GiB), for every GPU count "
            "(type names '<host>+<GPU>x<count>'); multi-GPU configurations usually get a larger host, so their "
            "host cost is understated. Accelerator rows with no host row in the same zone are not used: "
            "{unused}. Rows dropped: {dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. Spot hazard 0.05 per node-hour is a placeholder (UNVERIFIED); "
            "preemptible (not Spot) VMs also stop after 24 hours. Network and attached Local SSD per machine type "
            "from the GPU machine-types page (gcp-gpu-machine-types); the GPU-to-GPU RDMA NICs of A3 Mega/Ultra are "
            "used through GPUDirect-TCPXO/RDMA set-ups (compact placement), not by a default single-NIC VM. "
            "Billing per second with a 1-minute minimum (gcp-billing)."),
    "azure": ("Old v6 extract, US regions only; no Azure H200, L4 or L40S rows exist in it. Rows dropped: "
              "{dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. NC A100 v4 uses the A100 80GB PCIe card (azure-nca100v4, catalog GPU A100-80GB-PCIe), NCads "
              "H100 v5 lists 94 GB per GPU (azure-ncadsh100v5): the H100 NVL card (catalog GPU H100-NVL), and NCv3 "
              "carries the V100 PCIe (catalog GPU V100-PCIe); the ND sizes are SXM. Spot hazard 0.05 per node-hour "
              "is a placeholder (UNVERIFIED). Reserved defaults are market-survey derived (1y 38%, 3y 52%); the "
              "only Azure-specific typical figure read is 32% for a 1-year D4s_v3 reservation (non-GPU); Azure "
              "lets reservations be paid monthly at no extra cost, hence no_upfront. No Azure billing granularity "
              "was read, so none is given (the catalog default applies). Local disks are the temp SSDs of the "
              "size tables read (NCv3, ND A100 v4); other sizes' disks were not read."),
    "lambda": ("One price for all 17 regions (as in source); no spot market. Rows dropped: {dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. These are "
               "On-Demand Cloud (ODC) instances, billed per minute (lambda-billing). Lambda's InfiniBand-connected "
               "multi-node product is a separate offer, 1-Click Clusters (1CCs: reserved, priced per GPU-hour and "
               "billed weekly), not these instances; no network bandwidth between ODC instances is stated in the "
               "sources read, so network_gbps is left out. No Lambda-published reserved or 1CC price was read: "
               "reserved defaults are market-survey derived (not Lambda prices)."),
    "nebius": ("Spot prices exist for H100/H200 only (L40S rows have none, as in source). Rows dropped: "
               "{dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. 8-GPU H100/H200 presets: 3.2 Tbit/s InfiniBand per host for VMs in a GPU cluster "
               "(nebius-site-summary); the 1-GPU and L40S presets have no stated inter-node network. Billing per "
               "second (nebius-billing-unit). Spot hazard 0.05 per node-hour is a placeholder (UNVERIFIED). H100 "
               "presets carry Nebius's published reserve prices (1y, 3y, prepaid); every other instance uses the "
               "market-survey reserved defaults (default: true)."),
    "oci": ("Partial extract: 2 of about 29 region blocks (the source repeats identical shapes and prices). No "
            "spot prices in the source, so no spot section. Rows dropped: {dropped}. Spot prices at or above on-demand, left out (no spot discount): {spot_not_below}. Network is the RDMA "
            "cluster-network figure for bare-metal shapes (front-end NIC in the note). Reserved defaults are "
            "market-survey derived."),
}


# --------------------------------------------------------------------------
# YAML emitting (compact: price rows as one-line flow mappings)
# --------------------------------------------------------------------------
