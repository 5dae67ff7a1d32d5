// socmon_probe: a per-cycle dump of what attributes Ibex's counter increments to instructions,
// for tools/ibex_rtl/functions.py (the per-function fixtures, tests/ibex/fixtures/README.md).
// socmon's own code, not Ibex's: ibex_rtl.py builds it into simple_system and binds one instance
// into ibex_core (the bind at the end of this file), with no change to the design. It writes only
// when the simulator is given +socmon_probe=FILE.
//
// It runs on the core's (gated) clock, so it sees exactly the edges at which a counter can move.
// At each edge it writes, with the values of the cycle that edge ends (sampled before the update):
//   <edge> <fsm> <fsm_next> <id> <pc_id> <ret> <pc_wb> <inc>
// edge: edges since reset (hex); fsm/fsm_next: the controller's ctrl_fsm_cs/ns (ibex_pkg::ctrl_fsm_e,
// numeric); id: 0 = ID empty, 1 = a valid instruction in ID, 2 = one that entered ID this cycle
// (instr_new_id); pc_id: its PC (hex); ret: the minstret event (perf_instr_ret_wb) and, +2, the
// compressed one; pc_wb: the PC of the instruction they count (the WB stage's, or ID's without one);
// inc: the counters that increment at this edge (counter_inc_i of ibex_cs_registers, i.e. the event
// and not inhibited, bit i = counter index i), without those a CSR write replaces at this edge.
// A CSR write of counter i (low or high half) adds "w <i> <old>" at its edge and "v <i> <new>" at
// the next: the write's change of the counter is new - old, and its increment is lost (write wins).
// At the end: "end <pc_wb> <d2> <d10>", what the testbench's end-of-run read of minstret and
// NumInstrRetC adds to the raw counters (the speculative read, below), and the PC in WB.
// Left out: edges before the first reset (the simulator may give one), and edges at which nothing
// counts, no instruction enters ID and the controller stays in DECODE (a program that inhibits
// every counter dumps almost nothing).
module socmon_probe #(
  parameter bit WritebackStage = 1'b0
) (
  input logic        clk_i,
  input logic        rst_ni,
  input logic [3:0]  fsm_cs,
  input logic [3:0]  fsm_ns,
  input logic        instr_valid_id,
  input logic        instr_new_id,
  input logic [31:0] pc_id,
  input logic [31:0] pc_wb,
  input logic        ret,
  input logic        ret_c,
  input logic        ret_c_spec,
  input logic [31:0] incr,
  input logic [31:0] inhibit,
  input logic [31:0] we,
  input logic [31:0] weh,
  input logic [63:0] cnt [32],
  input logic [63:0] minstret_raw
);
  int          fd = 0;
  string       fname;
  logic [63:0] edges = '0;
  logic [31:0] written = '0;
  logic        in_run  = 1'b0;   // a reset has been seen (the simulator may give an edge before it)

  initial begin
    if ($value$plusargs("socmon_probe=%s", fname)) begin
      fd = $fopen(fname, "w");
      if (fd == 0) $fatal(1, "socmon_probe: cannot write %s", fname);
    end
  end

  // At the end, what the testbench's read of minstret and NumInstrRetC (mhpmcounter_get, after the
  // last edge) adds to the raw counters: with the writeback stage, the speculative +1 of the
  // instruction in WB when it has not been counted yet (ibex_cs_registers: instr_ret_spec_i).
  final begin
    if (fd != 0) begin
      $fwrite(fd, "end %0h %0h %0h\n", pc_wb, cnt[2] - minstret_raw, cnt[10] - raw(10));
      $fclose(fd);
    end
  end

  // the raw value of counter i (ibex_cs_registers reads minstret and counter 10 speculatively)
  function automatic logic [63:0] raw(int i);
    if (i == 2) return minstret_raw;
    if (i == 10 && ret_c_spec && !inhibit[10]) return cnt[10] - 64'd1;
    return cnt[i];
  endfunction

  logic [31:0] inc, wr;
  assign wr  = we | weh;
  assign inc = incr & ~inhibit & ~wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      edges   <= '0;
      written <= '0;
      in_run  <= 1'b1;
    end else begin
      edges   <= edges + 64'd1;
      written <= wr;
      if (fd != 0 && in_run) begin
        for (int i = 0; i < 32; i++)
          if (written[i]) $fwrite(fd, "v %0d %0h\n", i, raw(i));
        if (inc != 0 || instr_new_id || fsm_cs != fsm_ns || fsm_cs != 4'd5 || wr != 0 ||
            written != 0)
          $fwrite(fd, "%0h %0d %0d %0d %0h %0d %0h %0h\n", edges, fsm_cs, fsm_ns,
                  instr_valid_id ? (instr_new_id ? 2 : 1) : 0, pc_id,
                  {ret_c & ret, ret}, WritebackStage ? pc_wb : pc_id, inc);
        for (int i = 0; i < 32; i++)
          if (wr[i]) $fwrite(fd, "w %0d %0h\n", i, raw(i));
      end
    end
  end
endmodule

bind ibex_core socmon_probe #(.WritebackStage(WritebackStage)) u_socmon_probe (
  .clk_i         (clk_i),
  .rst_ni        (rst_ni),
  .fsm_cs        (id_stage_i.controller_i.ctrl_fsm_cs),
  .fsm_ns        (id_stage_i.controller_i.ctrl_fsm_ns),
  .instr_valid_id(instr_valid_id),
  .instr_new_id  (instr_new_id),
  .pc_id         (pc_id),
  .pc_wb         (pc_wb),
  .ret           (perf_instr_ret_wb),
  .ret_c         (perf_instr_ret_compressed_wb),
  .ret_c_spec    (cs_registers_i.instr_ret_compressed_spec_i),
  .incr          (cs_registers_i.mhpmcounter_incr),
  .inhibit       (cs_registers_i.mcountinhibit),
  .we            (cs_registers_i.mhpmcounter_we),
  .weh           (cs_registers_i.mhpmcounterh_we),
  .cnt           (cs_registers_i.mhpmcounter),
  .minstret_raw  (cs_registers_i.minstret_raw)
);
