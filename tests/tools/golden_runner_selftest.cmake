# The golden runner's own test: on a copy of tests/tools/fixtures/golden-runner/ (one case,
# `drifted`, whose recorded exit code and stderr are wrong and whose stdout is right) it must
# fail with a unified diff of exactly the two streams that differ, write their `.received`
# files, rewrite them under GPUPLAN_UPDATE_GOLDEN=1, then pass and leave no `.received` file.
#
# cmake -DRUNNER=path/to/gpuplan_golden -DFIXTURE=tests/tools/fixtures/golden-runner
#       -DWORK=scratch/folder -P golden_runner_selftest.cmake

file(REMOVE_RECURSE "${WORK}")
file(COPY "${FIXTURE}/" DESTINATION "${WORK}")
set(case_dir "${WORK}/drifted")

function(run_runner expected_status)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT status STREQUAL expected_status)
    message(FATAL_ERROR "gpuplan_golden exited ${status}, expected ${expected_status}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_in text needle)
  string(FIND "${text}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected to find: ${needle}")
  endif()
endfunction()

function(expect_not_in text needle)
  string(FIND "${text}" "${needle}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "expected not to find: ${needle}")
  endif()
endfunction()

# 1. A mismatch: a diff per differing stream, and the received bytes beside the expectations.
run_runner(1 "${RUNNER}" --cases "${WORK}" drifted)
expect_in("${out}" "golden drifted: exit_code differs; received in ${case_dir}/exit_code.received")
expect_in("${out}" "--- ${case_dir}/exit_code (expected)\n+++ ${case_dir}/exit_code.received (received)\n@@ -1 +1 @@\n-1\n+2\n")
expect_in("${out}" "golden drifted: stderr differs")
expect_in("${out}" "@@ -1 +1 @@\n-gpuplan: error: --preset: unknown preset 'llama-7b-lorra'\n+gpuplan: error: --preset: unknown preset 'llama-7b-lorra' (did you mean")
expect_not_in("${out}" "stdout differs")
expect_in("${out}" "golden: 0 of 1 cases match")
file(READ "${case_dir}/exit_code.received" received)
if(NOT received STREQUAL "2\n")
  message(FATAL_ERROR "exit_code.received holds '${received}', expected '2\\n'")
endif()
if(NOT EXISTS "${case_dir}/stderr.received" OR EXISTS "${case_dir}/stdout.received")
  message(FATAL_ERROR "expected stderr.received and no stdout.received in ${case_dir}")
endif()

# 2. GPUPLAN_UPDATE_GOLDEN=1 rewrites the two expectations and removes the received files.
run_runner(0 "${CMAKE_COMMAND}" -E env GPUPLAN_UPDATE_GOLDEN=1 "${RUNNER}" --cases "${WORK}" drifted)
expect_in("${out}" "golden drifted: rewrote exit_code\ngolden drifted: rewrote stderr\n")
file(READ "${case_dir}/exit_code" rewritten)
if(NOT rewritten STREQUAL "2\n" OR EXISTS "${case_dir}/exit_code.received"
   OR EXISTS "${case_dir}/stderr.received")
  message(FATAL_ERROR "the update left exit_code '${rewritten}' or a .received file")
endif()

# 3. Now the case matches; a missing expectation is a mismatch that an update records, and an
# unknown case name fails.
run_runner(0 "${RUNNER}" --cases "${WORK}")
expect_in("${out}" "golden: 1 of 1 cases match")
file(REMOVE "${case_dir}/stdout")
run_runner(1 "${RUNNER}" --cases "${WORK}" drifted)
expect_in("${out}" "golden drifted: stdout differs (no expected file)")
run_runner(0 "${CMAKE_COMMAND}" -E env GPUPLAN_UPDATE_GOLDEN=1 "${RUNNER}" --cases "${WORK}" drifted)
if(NOT EXISTS "${case_dir}/stdout")
  message(FATAL_ERROR "the update did not record the empty stdout")
endif()
run_runner(1 "${RUNNER}" --cases "${WORK}" no-such-case)
expect_in("${out}" "golden no-such-case: no such case")
message("golden runner self-test passed")
