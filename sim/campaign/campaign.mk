# SPDX-License-Identifier: Apache-2.0
# sim/campaign: accuracy campaigns (docs/campaign.md): one description (workloads x core
# configurations x sampling periods x modes x seeds) -> independent `tiprof accuracy --json`
# jobs, run locally in parallel or as a Slurm job array -> one results table and charts.
# Included from the top Makefile, which defines BUILD, PYTHON, CROSS_COMPILE, TIPROF_BIN, WORKLOAD_BINS and
# TEST_TARGETS; paths relative to the repository root.
#   make campaign [CAMPAIGN=FILE] [CAMPAIGN_JOBS=N] [SLURM=1]
#   make test-campaign      tests/sim/campaign: local run, kill, failure, real single-node Slurm
## campaign: run an accuracy campaign (CAMPAIGN=FILE, default sim/campaign/examples/small.campaign; CAMPAIGN_JOBS=N local jobs; SLURM=1: sbatch job array, waited for); results under build/campaign/NAME/merged
## test-campaign: accuracy campaigns: a tiny campaign locally, a killed job re-run alone, a failing job reported, the same campaign on a single-node Slurm (slurmctld+slurmd+munged started by the test) equal to the local run (~1 min)

CAMPAIGN_DIR  := sim/campaign
CAMPAIGN      ?= $(CAMPAIGN_DIR)/examples/small.campaign
CAMPAIGN_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: campaign test-campaign
TEST_TARGETS += test-campaign

campaign: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@$(PYTHON) $(CAMPAIGN_DIR)/campaign.py run $(CAMPAIGN) --tiprof $(TIPROF_BIN) \
	  -j $(CAMPAIGN_JOBS) $(if $(SLURM),--slurm --wait)

test-campaign: $(TIPROF_BIN) $(WORKLOAD_BINS)
	@PYTHON="$(PYTHON)" TIPROF="$(TIPROF_BIN)" WORKLOADS="$(BUILD)/workloads" CROSS_COMPILE="$(CROSS_COMPILE)" \
	  OUT="$(BUILD)/campaign-test" tests/sim/campaign/test_campaign.sh
