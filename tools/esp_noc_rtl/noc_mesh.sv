// One plane of an ESP NoC: ROWS x COLS of ESP's lookahead_router_wrapper, wired as
// tests/esp/noc_rtl/README.md says ("How the mesh was wired and driven"). Written for socmon's
// RTL oracle (tools/esp_noc_rtl/); ESP's router sources are fetched, never committed.
//
// Tile t = row * COLS + col, row 0 north, column 0 west; router t sits at x = col, y = row.
// Link ports are wired router to router; each local port is a port of this module, driven
// directly by the testbench (sync_noc_xy's HAS_SYNC = 0 branch). Per tile, bit t of a 1-bit
// vector and bits [t*FLIT +: FLIT] of a flit vector; void_out holds all 5 data_void_out bits
// of every router (the testbench counts them as mon_noc does).

module noc_mesh #(
    parameter int ROWS = 2,
    parameter int COLS = 3,
    parameter int FLIT = 66,       // 64-bit NoC + 2 preamble bits
    parameter int QUEUE = 4
) (
    input  logic                      clk,
    input  logic                      rst_n,
    input  logic [ROWS*COLS*FLIT-1:0] local_data_in,
    input  logic [ROWS*COLS-1:0]      local_void_in,
    input  logic [ROWS*COLS-1:0]      local_stop_in,
    output logic [ROWS*COLS-1:0]      local_stop_out,
    output logic [ROWS*COLS*FLIT-1:0] local_data_out,
    output logic [ROWS*COLS*5-1:0]    void_out
);
    localparam int N = ROWS * COLS;

    // Every router's ports, indexed by tile (port order N, S, W, E, L as in noc_pkg).
    logic [FLIT-1:0] d_n_out [N];
    logic [FLIT-1:0] d_s_out [N];
    logic [FLIT-1:0] d_w_out [N];
    logic [FLIT-1:0] d_e_out [N];
    logic [FLIT-1:0] d_n_in  [N];
    logic [FLIT-1:0] d_s_in  [N];
    logic [FLIT-1:0] d_w_in  [N];
    logic [FLIT-1:0] d_e_in  [N];
    logic [4:0]      v_in    [N];
    logic [4:0]      v_out   [N];
    logic [4:0]      s_in    [N];
    logic [4:0]      s_out   [N];

    for (genvar t = 0; t < N; t++) begin : g_tile
        localparam int R = t / COLS;
        localparam int C = t % COLS;
        // set_router_ports on an FPGA: no North on row 0, no West on column 0,
        // no South on the last row, no East on the last column.
        localparam bit [4:0] PORTS = {1'b1,
                                      C == COLS - 1 ? 1'b0 : 1'b1,   // E
                                      C == 0        ? 1'b0 : 1'b1,   // W
                                      R == ROWS - 1 ? 1'b0 : 1'b1,   // S
                                      R == 0        ? 1'b0 : 1'b1};  // N

        // North input: the South output of the router above (index 1 into index 0).
        if (R > 0) begin : g_n
            assign d_n_in[t]   = d_s_out[t-COLS];
            assign v_in[t][0]  = v_out[t-COLS][1];
            assign s_in[t][0]  = s_out[t-COLS][1];
        end else begin : g_n_edge
            assign d_n_in[t]   = '0;
            assign v_in[t][0]  = 1'b1;
            assign s_in[t][0]  = 1'b0;
        end
        // South input: the North output of the router below (0 into 1).
        if (R < ROWS - 1) begin : g_s
            assign d_s_in[t]   = d_n_out[t+COLS];
            assign v_in[t][1]  = v_out[t+COLS][0];
            assign s_in[t][1]  = s_out[t+COLS][0];
        end else begin : g_s_edge
            assign d_s_in[t]   = '0;
            assign v_in[t][1]  = 1'b1;
            assign s_in[t][1]  = 1'b0;
        end
        // West input: the East output of the router to the left (3 into 2).
        if (C > 0) begin : g_w
            assign d_w_in[t]   = d_e_out[t-1];
            assign v_in[t][2]  = v_out[t-1][3];
            assign s_in[t][2]  = s_out[t-1][3];
        end else begin : g_w_edge
            assign d_w_in[t]   = '0;
            assign v_in[t][2]  = 1'b1;
            assign s_in[t][2]  = 1'b0;
        end
        // East input: the West output of the router to the right (2 into 3).
        if (C < COLS - 1) begin : g_e
            assign d_e_in[t]   = d_w_out[t+1];
            assign v_in[t][3]  = v_out[t+1][2];
            assign s_in[t][3]  = s_out[t+1][2];
        end else begin : g_e_edge
            assign d_e_in[t]   = '0;
            assign v_in[t][3]  = 1'b1;
            assign s_in[t][3]  = 1'b0;
        end
        // Local port: the testbench.
        assign v_in[t][4] = local_void_in[t];
        assign s_in[t][4] = local_stop_in[t];
        assign local_stop_out[t] = s_out[t][4];
        assign void_out[t*5 +: 5] = v_out[t];

        logic [noc::xWidth-1:0] cx;
        logic [noc::yWidth-1:0] cy;
        assign cx = (noc::xWidth)'(C);
        assign cy = (noc::yWidth)'(R);

        lookahead_router_wrapper #(
            .FlowControl(1'b0),             // noc::kFlowControlAckNack (FLOW_CONTROL = 0)
            .Width(FLIT),
            .Ports(PORTS),
            .DEST_SIZE(1),
            .QUEUE_SIZE(QUEUE)
        ) router (
            .clk(clk),
            .rst(rst_n),
            .CONST_localx(cx),
            .CONST_localy(cy),
            .data_n_in(d_n_in[t]),
            .data_s_in(d_s_in[t]),
            .data_w_in(d_w_in[t]),
            .data_e_in(d_e_in[t]),
            .data_p_in(local_data_in[t*FLIT +: FLIT]),
            .data_void_in(v_in[t]),
            .stop_out(s_out[t]),
            .data_n_out(d_n_out[t]),
            .data_s_out(d_s_out[t]),
            .data_w_out(d_w_out[t]),
            .data_e_out(d_e_out[t]),
            .data_p_out(local_data_out[t*FLIT +: FLIT]),
            .data_void_out(v_out[t]),
            .stop_in(s_in[t])
        );
    end
endmodule
