// Checks and the command line of the semantic drivers: `DRIVER --list`
// prints the fallback ids it tests, `DRIVER ID` runs that fallback's checks
// and exits 1 if one failed (the first failures are printed).
#pragma once

#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>

namespace check {

inline int failures = 0;
inline long count = 0;

inline void expect(bool ok, const std::string& what) {
    ++count;
    if (!ok && failures++ < 20) std::fprintf(stderr, "FAIL %s\n", what.c_str());
}

struct Test {
    const char* id;
    void (*run)();
};

inline int drive(int argc, char** argv, std::initializer_list<Test> tests) {
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        for (const Test& t : tests) std::printf("%s\n", t.id);
        return 0;
    }
    bool found = false;
    for (const Test& t : tests) {
        if (argc == 2 && std::strcmp(argv[1], t.id) == 0) {
            t.run();
            found = true;
        }
    }
    if (!found) {
        std::fprintf(stderr, "no test %s\n", argc == 2 ? argv[1] : "(none given)");
        return 2;
    }
    std::printf("%ld checks, %d failed\n", count, failures);
    return failures == 0 && count > 0 ? 0 : 1;
}

}  // namespace check
