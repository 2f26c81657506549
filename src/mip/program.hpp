#pragma once
// A mixed-integer program as GLPK takes it, built column by column and row by row, minimised.
// Fleet planning and the traffic-curve plan both solve one; GLPK's header stays in program.cpp.

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

struct glp_prob;

namespace gpuplan::mip {

// A column's kind: continuous, integer, or binary (GLPK bounds a binary column to [0, 1]).
enum class Kind { continuous, integer, binary };

// A term coef * column of a row.
using Terms = std::vector<std::pair<int, double>>;

class Program {
public:
    Program();
    ~Program();
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    Program(Program&&) = delete;
    Program& operator=(Program&&) = delete;

    // A column in [lower, upper] (fixed when they are equal) costing `cost` per unit; its index.
    int column(double lower, double upper, double cost, Kind kind);
    // A continuous column in [0, infinity) costing `cost` per unit; its index.
    int free_column(double cost);
    // Rows: sum(coef x) == value, <= value, >= value.
    void equal(const Terms& terms, double value);
    void at_most(const Terms& terms, double value);
    void at_least(const Terms& terms, double value);

    // Solves within `max_nodes` branch-and-bound subproblems and `time_limit_ms` of GLPK's wall
    // time (then the best solution found, not proven optimal); false when GLPK finds no integer
    // solution. Counting subproblems, not seconds, keeps the answer the same on every machine
    // while the time limit is not reached.
    bool solve(long max_nodes, int time_limit_ms);
    // Whether the last solve proved its solution optimal.
    [[nodiscard]] bool optimal() const;
    [[nodiscard]] double value(int col) const;
    [[nodiscard]] double objective() const;
    // A proven lower bound of the objective (the objective itself when optimal), when known.
    [[nodiscard]] std::optional<double> bound() const { return m_bound; }
    [[nodiscard]] std::size_t columns() const;
    [[nodiscard]] std::size_t rows() const;
    // How many columns are integer or binary.
    [[nodiscard]] std::size_t integers() const { return m_integers; }

private:
    struct Delete {
        void operator()(glp_prob* p) const;
    };
    void row(const Terms& terms, int type, double lower, double upper);

    std::unique_ptr<glp_prob, Delete> m_prob;
    std::vector<int> m_ia{0};
    std::vector<int> m_ja{0};
    std::vector<double> m_ar{0.0};
    std::size_t m_integers = 0;
    int m_status = 0;
    std::optional<double> m_bound;
};

} // namespace gpuplan::mip
