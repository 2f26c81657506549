#include "mip/program.hpp"

#include <algorithm>
#include <glpk.h>

namespace gpuplan::mip {

namespace {

// Bounds at or below minus this are GLPK's "none yet" (-DBL_MAX).
constexpr double k_no_bound = 1e300;

// What the branch-and-bound callback keeps: subproblems selected, their limit and the best bound
// of the open subproblems when it last looked.
struct Search {
    long selected = 0;
    long limit = 0;
    std::optional<double> bound;
};

int glp_kind(Kind kind) {
    switch (kind) {
    case Kind::continuous:
        return GLP_CV;
    case Kind::integer:
        return GLP_IV;
    case Kind::binary:
        return GLP_BV;
    }
    return GLP_CV;
}

void on_search(glp_tree* tree, void* info) {
    auto& s = *static_cast<Search*>(info);
    // Every open subproblem's bound is at least the best one's, and a subproblem's children never
    // bound lower than it: the last bound seen stays a proven bound. A subproblem whose LP is not
    // solved yet bounds nothing (-DBL_MAX).
    if (const int best = glp_ios_best_node(tree); best != 0) {
        const double bound = glp_ios_node_bound(tree, best);
        if (bound > -k_no_bound) {
            s.bound = bound;
        }
    }
    if (glp_ios_reason(tree) == GLP_ISELECT && ++s.selected > s.limit) {
        glp_ios_terminate(tree);
    }
}

} // namespace

void Program::Delete::operator()(glp_prob* p) const {
    glp_delete_prob(p);
}

Program::Program() : m_prob(glp_create_prob()), m_status(GLP_UNDEF) {
    glp_set_obj_dir(m_prob.get(), GLP_MIN);
}

Program::~Program() = default;

int Program::column(double lower, double upper, double cost, Kind kind) {
    const int col = glp_add_cols(m_prob.get(), 1);
    glp_set_col_bnds(m_prob.get(), col, lower == upper ? GLP_FX : GLP_DB, lower, upper);
    glp_set_obj_coef(m_prob.get(), col, cost);
    glp_set_col_kind(m_prob.get(), col, glp_kind(kind));
    if (kind != Kind::continuous) {
        ++m_integers;
    }
    return col;
}

int Program::free_column(double cost) {
    const int col = glp_add_cols(m_prob.get(), 1);
    glp_set_col_bnds(m_prob.get(), col, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(m_prob.get(), col, cost);
    return col;
}

void Program::equal(const Terms& terms, double value) {
    row(terms, GLP_FX, value, value);
}

void Program::at_most(const Terms& terms, double value) {
    row(terms, GLP_UP, 0.0, value);
}

void Program::at_least(const Terms& terms, double value) {
    row(terms, GLP_LO, value, 0.0);
}

void Program::row(const Terms& terms, int type, double lower, double upper) {
    const int r = glp_add_rows(m_prob.get(), 1);
    glp_set_row_bnds(m_prob.get(), r, type, lower, upper);
    for (const auto& [col, coef] : terms) {
        m_ia.push_back(r);
        m_ja.push_back(col);
        m_ar.push_back(coef);
    }
}

bool Program::solve(long max_nodes, int time_limit_ms) {
    glp_load_matrix(m_prob.get(), static_cast<int>(m_ia.size()) - 1, m_ia.data(), m_ja.data(),
                    m_ar.data());
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = std::max(1, time_limit_ms);
    Search search{0, max_nodes, std::nullopt};
    parm.cb_info = &search;
    parm.cb_func = on_search;
    const int status = glp_intopt(m_prob.get(), &parm);
    const bool stopped = status == GLP_ESTOP || status == GLP_ETMLIM;
    m_status = status == 0 || stopped ? glp_mip_status(m_prob.get()) : GLP_UNDEF;
    if (stopped && m_status == GLP_OPT) {
        m_status = GLP_FEAS; // GLPK stopped before proving it
    }
    m_bound = m_status == GLP_OPT ? std::optional<double>(objective()) : search.bound;
    if (m_bound && m_status == GLP_FEAS) {
        m_bound = std::min(*m_bound, objective());
    }
    return m_status == GLP_OPT || m_status == GLP_FEAS;
}

bool Program::optimal() const {
    return m_status == GLP_OPT;
}

double Program::value(int col) const {
    return glp_mip_col_val(m_prob.get(), col);
}

double Program::objective() const {
    return glp_mip_obj_val(m_prob.get());
}

std::size_t Program::columns() const {
    return static_cast<std::size_t>(glp_get_num_cols(m_prob.get()));
}

std::size_t Program::rows() const {
    return static_cast<std::size_t>(glp_get_num_rows(m_prob.get()));
}

} // namespace gpuplan::mip
