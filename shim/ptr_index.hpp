// PtrIndex: a map from pointers to small values for the cone solver's
// per-step bookkeeping (cone_solver.hpp).  Internal to the shim.
//
// Every step fills a few of these with up to one key per contact point or
// manifold and empties them again, so std::unordered_map cost one node
// allocation and one free per key per step.  This is an open-addressing
// table instead: one flat array of slots, power-of-two capacity, linear
// probing, load kept at or below 1/2 by doubling.  clear() keeps the
// array, so a table refilled step after step with about as many keys
// never allocates once it has grown to size.
//
// Keys are only compared, never dereferenced; nullptr is the empty-slot
// marker and cannot be a key.  There is no erase (nothing needs it; a
// table is cleared and refilled as a whole).
#ifndef ROLLFRIC_SHIM_PTR_INDEX_HPP
#define ROLLFRIC_SHIM_PTR_INDEX_HPP

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace rfshim {

// A hint to the processor to bring p's cache line in; no effect on
// results.
inline void prefetch_read(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

// The same for a line about to be written (fetched for ownership).
inline void prefetch_write(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p, 1, 3);
#else
    (void)p;
#endif
}

template <class V> class PtrIndex {
  public:
    // Forget every key.  The slot array stays, so refilling allocates
    // nothing; an empty table costs nothing to clear.
    void clear()
    {
        if (size_ != 0) {
            for (Slot &s : slots_) {
                s.key = nullptr;
            }
            size_ = 0;
        }
    }

    size_t size() const
    {
        return size_;
    }

    // Room for n keys without growing while they go in.
    void reserve(size_t n)
    {
        if (2 * n > slots_.size()) {
            rehash(capacity_for(n));
        }
    }

    // The value of key, or nullptr.
    const V *find(const void *key) const
    {
        if (size_ == 0 || key == nullptr) {
            return nullptr;
        }
        const size_t mask = slots_.size() - 1;
        for (size_t i = home(key);; i = (i + 1) & mask) {
            const Slot &s = slots_[i];
            if (s.key == key) {
                return &s.value;
            }
            if (s.key == nullptr) { // load <= 1/2: an empty slot ends the run
                return nullptr;
            }
        }
    }

    // Start bringing in key's first slot, for a find a little later.
    void prefetch(const void *key) const
    {
        if (!slots_.empty()) {
            prefetch_read(&slots_[home(key)]);
        }
    }

    V *find(const void *key)
    {
        return const_cast<V *>(static_cast<const PtrIndex *>(this)->find(key));
    }

    // The value of key; key is inserted with value init if it is absent
    // (a present key keeps its value, as std::unordered_map::emplace).
    // The reference is valid until the next insert.
    V &insert(const void *key, const V &init)
    {
        assert(key != nullptr);
        if (2 * (size_ + 1) > slots_.size()) {
            rehash(capacity_for(size_ + 1));
        }
        const size_t mask = slots_.size() - 1;
        for (size_t i = home(key);; i = (i + 1) & mask) {
            Slot &s = slots_[i];
            if (s.key == key) {
                return s.value;
            }
            if (s.key == nullptr) {
                s.key = key;
                s.value = init;
                ++size_;
                return s.value;
            }
        }
    }

    void swap(PtrIndex &o)
    {
        slots_.swap(o.slots_);
        std::swap(size_, o.size_);
        std::swap(shift_, o.shift_);
    }

  private:
    struct Slot {
        const void *key;
        V value;
    };

    // the smallest power of two >= 16 that holds n keys at load <= 1/2,
    // and never less than what is there (a table only grows)
    size_t capacity_for(size_t n) const
    {
        size_t cap = slots_.size() < 16 ? 16 : slots_.size();
        while (cap < 2 * n) {
            cap *= 2;
        }
        return cap;
    }

    // Fibonacci hashing: the top log2(capacity) bits of key * 2^64 / phi.
    // Heap pointers share their low bits (alignment) and high bits (the
    // arena), and the multiplication mixes the middle ones into the top.
    size_t home(const void *key) const
    {
        const std::uint64_t x =
            (std::uint64_t)(std::uintptr_t)key * 0x9E3779B97F4A7C15ull;
        return (size_t)(x >> shift_);
    }

    void rehash(size_t cap)
    {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(cap, Slot{nullptr, V{}});
        shift_ = 64;
        for (size_t c = cap; c > 1; c >>= 1) {
            --shift_;
        }
        size_ = 0;
        for (const Slot &s : old) {
            if (s.key != nullptr) {
                insert(s.key, s.value);
            }
        }
    }

    std::vector<Slot> slots_; // empty, or a power of two >= 16 of them
    size_t size_ = 0;         // keys in the table
    int shift_ = 64;          // 64 - log2(slots_.size()), once there are slots
};

} // namespace rfshim

#endif // ROLLFRIC_SHIM_PTR_INDEX_HPP
