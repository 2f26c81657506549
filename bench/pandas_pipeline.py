#!/usr/bin/python3
"""The pandas equivalent of `gpuplan recommend` on a feed, for bench/run's comparison.

Usage: bench/pandas_pipeline.py FEED.csv GPU[,GPU...]

read_csv, keep rows of the given GPU models with an on-demand price, take the cheapest region
per (provider, instance type), sort by price, print the 20 cheapest. Runs with Debian's
python3-pandas (installed for /usr/bin/python3 only).
"""

import sys

import pandas as pd


def main(argv):
    path, gpus = argv[0], argv[1].split(",")
    frame = pd.read_csv(path)
    frame = frame[frame["AcceleratorName"].isin(gpus)].dropna(subset=["Price"])
    cheapest = frame.loc[frame.groupby(["Provider", "InstanceType"])["Price"].idxmin()]
    cheapest = cheapest.sort_values(["Price", "Provider", "InstanceType"])
    print(cheapest[["Provider", "InstanceType", "AcceleratorName", "AcceleratorCount", "Region",
                    "AvailabilityZone", "Price", "SpotPrice"]].head(20).to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
