// The cache-hint fallbacks load and store what plain loads and stores do:
// for scalars, vector-like structs of every size and alignment the
// fallbacks' word logic distinguishes, on many random values.
#include <random>
#include <typeinfo>

#include "wave.h"
#include HIPPORT_FALLBACKS

namespace {

struct Bytes3 { unsigned char a, b, c; };
struct Shorts3 { short x, y, z; };
struct alignas(8) Int2 { int x, y; };
struct alignas(16) Float4 { float x, y, z, w; };
struct alignas(16) Double2 { double x, y; };
struct Packed12 { float x, y, z; };

std::mt19937_64 rng(27);

template <typename T>
T random_value() {
    T value;
    unsigned char bytes[sizeof(T)];
    for (auto& b : bytes) b = static_cast<unsigned char>(rng());
    std::memcpy(&value, bytes, sizeof(T));
    if constexpr (std::is_floating_point<T>::value) {
        if (value != value) value = T(1.5);  // a NaN compares unequal to itself: not here
    }
    return value;
}

template <typename T>
bool same(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Each (load or store, type) pair on random values, into arrays (the value
// lands where a plain store puts it, and its neighbours stay).
template <typename T, typename Load>
void loads(const char* name, Load load) {
    for (int i = 0; i < 200; ++i) {
        T memory[3] = {random_value<T>(), random_value<T>(), random_value<T>()};
        const T expected = memory[1];
        const T got = load(&memory[1]);
        check::expect(same(got, expected), std::string(name) + " " + typeid(T).name());
    }
}

template <typename T, typename Store>
void stores(const char* name, Store store) {
    for (int i = 0; i < 200; ++i) {
        T memory[3] = {random_value<T>(), random_value<T>(), random_value<T>()};
        const T before[3] = {memory[0], memory[1], memory[2]};
        const T value = random_value<T>();
        store(&memory[1], value);
        check::expect(same(memory[1], value) && same(memory[0], before[0]) &&
                          same(memory[2], before[2]),
                      std::string(name) + " " + typeid(T).name());
    }
}

template <typename... Ts>
struct Types {
    template <typename F>
    static void each(F f) { (f.template operator()<Ts>(), ...); }
};
using Tested = Types<char, signed char, unsigned short, int, long, unsigned long long, float,
                     double, Bytes3, Shorts3, Int2, Float4, Double2, Packed12>;

template <typename Load>
void every_type_loads(const char* name, Load load) {
    Tested::each([&]<typename T>() { loads<T>(name, load); });
}

template <typename Store>
void every_type_stores(const char* name, Store store) {
    Tested::each([&]<typename T>() { stores<T>(name, store); });
}

#define LOAD(f) [](const auto* p) { return f(p); }
#define STORE(f) [](auto* p, auto v) { f(p, v); }

}  // namespace

int main(int argc, char** argv) {
    return check::drive(argc, argv, {
        {"ldcs-ldlu", [] {
             every_type_loads("__ldcs", LOAD(__ldcs));
             every_type_loads("__ldlu", LOAD(__ldlu));
         }},
        {"ldcg", [] { every_type_loads("__ldcg", LOAD(__ldcg)); }},
        {"ldcv", [] { every_type_loads("__ldcv", LOAD(__ldcv)); }},
        {"stcs", [] { every_type_stores("__stcs", STORE(__stcs)); }},
        {"stcg-stwb", [] {
             every_type_stores("__stcg", STORE(__stcg));
             every_type_stores("__stwb", STORE(__stwb));
         }},
        {"stwt", [] { every_type_stores("__stwt", STORE(__stwt)); }},
    });
}
