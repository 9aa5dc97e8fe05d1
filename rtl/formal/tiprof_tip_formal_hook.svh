// SPDX-License-Identifier: Apache-2.0
// Inserted by rtl/formal/formal.sh before the last `endmodule` of a copy of rtl/tiprof_tip.sv
// (build/formal/): instantiates the property module in the TIP subsystem's scope, as `bind`
// would. The CSR port seen here is the subsystem's: the unit top passes only legal accesses to a
// TIP register (req_i), so the property module sees no illegal ones.
  tiprof_tip_formal #(
    .W (W), .XLEN (XLEN), .Depth (FifoDepth), .CntW (CntW), .SampleW (SampleW),
    .OffCycle (OffCycle), .OffFlags (OffFlags), .OffBank (OffBank), .OffValid (OffValid),
    .OffPriv (OffPriv), .OffCtx (OffCtx), .OffAddr (OffAddr)
  ) u_formal (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .head_valid_i    (head_valid_i),
    .head_commit_i   (head_commit_i),
    .head_pc_i       (head_pc_i),
    .head_mispred_i  (head_mispred_i),
    .head_flush_i    (head_flush_i),
    .head_bank_i     (head_bank_i),
    .exception_i     (exception_i),
    .disp_valid_i    (disp_valid_i),
    .disp_pc_i       (disp_pc_i),
    .priv_i          (priv_i),
    .ctx_i           (ctx_i),
    .csr_req_i       (req_i),
    .csr_we_i        (we_i),
    .csr_addr_i      (addr_i),
    .csr_rdata_i     (rdata_o),
    .csr_illegal_i   (1'b0),
    .trigger_i       (trigger),
    .fire_i          (fire),
    .pop_i           (pop),
    .pop_empty_i     (pop_empty),
    .head_ok_i       (head_valid),
    .head_data_i     (head_data),
    .fifo_count_i    (fifo_count),
    .fifo_full_i     (fifo_full),
    .fifo_pending_i  (fifo_pending),
    .oir_addr_i      (oir_addr),
    .oir_mispred_i   (oir_mispred),
    .oir_flush_i     (oir_flush),
    .oir_exception_i (oir_exception),
    .oir_priv_i      (oir_priv),
    .oir_ctx_i       (oir_ctx),
    .s_flags_i       (s_flags),
    .s_bank_i        (s_bank),
    .s_valid_i       (s_valid),
    .s_addr_i        (s_addr),
    .s_priv_i        (s_priv),
    .s_ctx_i         (s_ctx),
    .s_pending_i     (s_pending)
  );
