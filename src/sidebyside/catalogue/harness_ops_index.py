"""PyTorch helpers the ops_index / ops_control checks call (their entries' recipes)."""


def mx_sequence_reverse(data, length):
    """Reverse the first length[n] steps of each sequence n (time-major);
    the padding after them stays where it is."""
    out = data.clone()
    for n, l in enumerate(length.long().tolist()):
        out[:l, n] = data[:l, n].flip(0)
    return out


def torch_foreach(body, data, states):
    """MXNet's contrib.foreach as a Python loop over data's first axis: body(x_t, states)
    returns (output, new states); the outputs are stacked."""
    import torch

    outs = []
    for x_t in data:
        out, states = body(x_t, states)
        outs.append(out)
    return torch.stack(outs), states


def torch_while_loop(cond, func, loop_vars, max_iterations):
    """MXNet's contrib.while_loop as a Python loop: func(*loop_vars) returns (step output,
    new loop_vars); the step outputs are stacked (MXNet pads them to max_iterations)."""
    import torch

    outs, steps = [], 0
    while steps < max_iterations and bool(cond(*loop_vars)):
        out, loop_vars = func(*loop_vars)
        outs.append(out)
        steps += 1
    return torch.stack(outs), loop_vars
