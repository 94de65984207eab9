# Sourced by .ci/run and tests/run: `stage NAME` starts a stage (and prints
# "== NAME"); on exit, pass or fail, the time each stage took is printed
# (the whole CI run must stay under 40 minutes: this says where the minutes
# go). The exit code is the script's own. Argument: the script's name.
stages_of="$1"
stage_names=()
stage_secs=()
stage_name=""
stage_start=$SECONDS
stage() {
  if [ -n "$stage_name" ]; then
    stage_names+=("$stage_name")
    stage_secs+=($((SECONDS - stage_start)))
  fi
  stage_name="$1"
  stage_start=$SECONDS
  echo "== $1"
}
print_stages() {
  if [ -n "$stage_name" ]; then
    stage_names+=("$stage_name")
    stage_secs+=($((SECONDS - stage_start)))
  fi
  echo "== time per stage ($stages_of, $SECONDS s in all)"
  for i in "${!stage_names[@]}"; do printf '   %5d s  %s\n' "${stage_secs[$i]}" "${stage_names[$i]}"; done
}
trap print_stages EXIT
