// sde_lib.hpp: libsde's C++ API (PAPI 7.0's papi_sde::PapiSde), a thin layer over the calls of sde_lib.h.
#ifndef PAPI_SDE_LIB_HPP
#define PAPI_SDE_LIB_HPP

#include <exception>
#include <type_traits>

#include "sde_lib.h"

namespace papi_sde
{
    class PapiSde {
    private:
        papi_handle_t sde_handle;

        template <typename T> static int type_of()
        {
            return std::is_same<long long int, T>::value ? PAPI_SDE_long_long
                 : std::is_same<int, T>::value ? PAPI_SDE_int
                 : std::is_same<double, T>::value ? PAPI_SDE_double
                 : std::is_same<float, T>::value ? PAPI_SDE_float : -1;
        }

    public:
        class CreatedCounter;
        class Recorder;
        class CountingSet;

        // The library's handle (papi_sde_init).
        PapiSde(const char *name_of_library) : sde_handle(papi_sde_init(name_of_library)) {}

        // counter (long long, int, double or float) as the event event_name;
        // SDE_EINVAL for another type.
        template <typename T> int register_counter(const char *event_name, int cntr_mode, T &counter)
        {
            int type = type_of<T>();
            if (type < 0)
                return SDE_EINVAL;
            return papi_sde_register_counter(sde_handle, event_name, cntr_mode, type, &counter);
        }

        // func_ptr(&param) at each read; it must return a long long.
        template <typename T, typename P>
        int register_counter_cb(const char *event_name, int cntr_mode, T (*func_ptr)(P *), P &param)
        {
            if (!std::is_same<long long int, T>::value) {
                SDE_ERROR("register_counter_cb(): the callback must return a long long int");
                return SDE_EINVAL;
            }
            return papi_sde_register_counter_cb(sde_handle, event_name, cntr_mode, PAPI_SDE_long_long,
                                                (papi_sde_fptr_t)func_ptr, &param);
        }

        int unregister_counter(const char *event_name)
        {
            return papi_sde_unregister_counter(sde_handle, event_name);
        }

        int describe_counter(const char *event_name, const char *event_description)
        {
            return papi_sde_describe_counter(sde_handle, event_name, event_description);
        }

        int add_counter_to_group(const char *event_name, const char *group_name, uint32_t group_flags)
        {
            return papi_sde_add_counter_to_group(sde_handle, event_name, group_name, group_flags);
        }

        // nullptr when libsde refuses (the caller deletes the object).
        CreatedCounter *create_counter(const char *event_name, int cntr_mode);
        Recorder *create_recorder(const char *event_name, size_t typesize,
                                  int (*cmpr_func_ptr)(const void *p1, const void *p2));
        CountingSet *create_counting_set(const char *cset_name);

        class Recorder {
        private:
            void *recorder_handle = nullptr;

        public:
            Recorder(papi_handle_t sde_handle, const char *event_name, size_t typesize,
                     int (*cmpr_func_ptr)(const void *p1, const void *p2))
            {
                if (SDE_OK != papi_sde_create_recorder(sde_handle, event_name, typesize, cmpr_func_ptr,
                                                       &recorder_handle))
                    throw std::exception();
            }

            template <typename T> int record(T const &value)
            {
                if (nullptr == recorder_handle)
                    return SDE_EINVAL;
                return papi_sde_record(recorder_handle, sizeof(T), &value);
            }

            int reset(void)
            {
                return nullptr == recorder_handle ? SDE_EINVAL : papi_sde_reset_recorder(recorder_handle);
            }
        };

        class CreatedCounter {
        private:
            void *counter_handle = nullptr;

        public:
            CreatedCounter(papi_handle_t sde_handle, const char *event_name, int cntr_mode)
            {
                if (SDE_OK != papi_sde_create_counter(sde_handle, event_name, cntr_mode, &counter_handle))
                    throw std::exception();
            }

            // The counter is a long long: other types are converted.
            template <typename T> int increment(T const &increment)
            {
                if (nullptr == counter_handle)
                    return SDE_EINVAL;
                return papi_sde_inc_counter(counter_handle, (long long int)increment);
            }

            int reset(void)
            {
                return nullptr == counter_handle ? SDE_EINVAL : papi_sde_reset_counter(counter_handle);
            }
        };

        class CountingSet {
        private:
            void *cset_handle = nullptr;

        public:
            CountingSet(papi_handle_t sde_handle, const char *cset_name)
            {
                if (SDE_OK != papi_sde_create_counting_set(sde_handle, cset_name, &cset_handle))
                    throw std::exception();
            }

            // element, told apart by all its bytes (or its first hashable_size)
            template <typename T> int insert(T const &element, uint32_t type_id)
            {
                if (nullptr == cset_handle)
                    return SDE_EINVAL;
                return papi_sde_counting_set_insert(cset_handle, sizeof(T), sizeof(T), &element, type_id);
            }

            template <typename T> int insert(size_t hashable_size, T const &element, uint32_t type_id)
            {
                if (nullptr == cset_handle)
                    return SDE_EINVAL;
                return papi_sde_counting_set_insert(cset_handle, sizeof(T), hashable_size, &element, type_id);
            }

            template <typename T> int remove(size_t hashable_size, T const &element, uint32_t type_id)
            {
                if (nullptr == cset_handle)
                    return SDE_EINVAL;
                return papi_sde_counting_set_remove(cset_handle, hashable_size, &element, type_id);
            }
        };
    };

    inline PapiSde::CreatedCounter *PapiSde::create_counter(const char *event_name, int cntr_mode)
    {
        try {
            return new CreatedCounter(sde_handle, event_name, cntr_mode);
        } catch (std::exception const &) {
            return nullptr;
        }
    }

    inline PapiSde::Recorder *PapiSde::create_recorder(const char *event_name, size_t typesize,
                                                        int (*cmpr_func_ptr)(const void *p1, const void *p2))
    {
        try {
            return new Recorder(sde_handle, event_name, typesize, cmpr_func_ptr);
        } catch (std::exception const &) {
            return nullptr;
        }
    }

    inline PapiSde::CountingSet *PapiSde::create_counting_set(const char *cset_name)
    {
        try {
            return new CountingSet(sde_handle, cset_name);
        } catch (std::exception const &) {
            return nullptr;
        }
    }

    template <typename T> PapiSde::CreatedCounter &operator+=(PapiSde::CreatedCounter &X, const T increment)
    {
        X.increment(increment);
        return X;
    }

    inline PapiSde::CreatedCounter &operator++(PapiSde::CreatedCounter &X)
    {
        X.increment(1LL);
        return X;
    }

    inline PapiSde::CreatedCounter &operator--(PapiSde::CreatedCounter &X)
    {
        X.increment(-1LL);
        return X;
    }
} // namespace papi_sde

#endif
